import Reactive
import ReactiveTesting
import Testing

@Suite struct FlatMapTests {
  @Test("inner sequences run side by side; completes after the outer and every inner")
  func concurrentInners() {
    let scheduler = TestScheduler()
    let inner = scheduler.createColdObservable([.next(10, "a"), .next(30, "b"), .completed(40)])
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    let res = scheduler.start { xs.flatMap { n in inner.map { "\($0)\(n)" } } }
    #expect(
      res.events == [
        .next(220, "a1"), .next(230, "a2"), .next(240, "b1"), .next(250, "b2"),
        .completed(260),
      ])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(inner.subscriptions == [Subscription(210, 250), Subscription(220, 260)])
  }

  @Test("an inner error ends everything and disposes the rest")
  func innerError() {
    let scheduler = TestScheduler()
    let failing = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.boom)])
    let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2)])
    let res = scheduler.start { xs.flatMap { _ in failing } }
    #expect(res.events == [.next(220, 1), .error(230, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
    #expect(failing.subscriptions == [Subscription(210, 230)])
  }

  @Test("an outer error ends everything and disposes the inners")
  func outerError() {
    let scheduler = TestScheduler()
    let inner = scheduler.createColdObservable([.next(100, 1)])
    let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError.boom)])
    let res = scheduler.start { xs.flatMap { _ in inner } }
    #expect(res.events == [.error(250, TestError.boom)])
    #expect(inner.subscriptions == [Subscription(210, 250)])
  }

  @Test("a throwing selector ends the sequence with its error")
  func throwingSelector() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1)])
    let res = scheduler.start {
      xs.flatMap { (_: Int) throws -> Observable<Int> in throw TestError.boom }
    }
    #expect(res.events == [.error(210, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 210)])
  }

  @Test("inners that complete at once do not end the sequence early")
  func synchronousInners() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    let res = scheduler.start { xs.flatMap { Observable.of($0, $0 * 10) } }
    #expect(
      res.events == [
        .next(210, 1), .next(210, 10), .next(220, 2), .next(220, 20), .completed(300),
      ])
  }
}
