import Reactive
import ReactiveTesting
import Testing

@Suite struct FlatMapLatestTests {
  @Test("a new element disposes the previous inner sequence (only the newest token counts)")
  func switchesToNewest() {
    let scheduler = TestScheduler()
    let request = scheduler.createColdObservable([.next(50, "ok"), .completed(60)])
    let tokens = scheduler.createHotObservable([
      .next(210, "t1"), .next(230, "t2"), .completed(400),
    ])
    let res = scheduler.start { tokens.flatMapLatest { token in request.map { "\(token) \($0)" } } }
    #expect(res.events == [.next(280, "t2 ok"), .completed(400)])
    #expect(request.subscriptions == [Subscription(210, 230), Subscription(230, 290)])
    #expect(tokens.subscriptions == [Subscription(200, 400)])
  }

  @Test("completes only after the outer and the current inner have completed")
  func waitsForInner() {
    let scheduler = TestScheduler()
    let inner = scheduler.createColdObservable([.next(50, 1), .completed(100)])
    let xs = scheduler.createHotObservable([.next(210, 0), .completed(220)])
    let res = scheduler.start { xs.flatMapLatest { _ in inner } }
    #expect(res.events == [.next(260, 1), .completed(310)])
    #expect(inner.subscriptions == [Subscription(210, 310)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("an error from the current inner ends everything")
  func innerError() {
    let scheduler = TestScheduler()
    let inner = scheduler.createColdObservable([.error(20, TestError.boom, Int.self)])
    let xs = scheduler.createHotObservable([.next(210, 0), .next(300, 1)])
    let res = scheduler.start { xs.flatMapLatest { _ in inner } }
    #expect(res.events == [.error(230, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("an error from a disposed inner is never heard")
  func staleInnerError() {
    let scheduler = TestScheduler()
    let slowFailure = scheduler.createColdObservable([.error(50, TestError.boom, Int.self)])
    let quick = scheduler.createColdObservable([.next(5, 7), .completed(10)])
    let xs = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .completed(300)])
    let res = scheduler.start { xs.flatMapLatest { $0 == 0 ? slowFailure : quick } }
    #expect(res.events == [.next(225, 7), .completed(300)])
    #expect(slowFailure.subscriptions == [Subscription(210, 220)])
  }

  @Test("an outer error ends everything and disposes the inner")
  func outerError() {
    let scheduler = TestScheduler()
    let inner = scheduler.createColdObservable([.next(100, 1)])
    let xs = scheduler.createHotObservable([.next(210, 0), .error(250, TestError.other)])
    let res = scheduler.start { xs.flatMapLatest { _ in inner } }
    #expect(res.events == [.error(250, TestError.other)])
    #expect(inner.subscriptions == [Subscription(210, 250)])
  }

  @Test("a throwing selector ends the sequence with its error")
  func throwingSelector() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1)])
    let res = scheduler.start {
      xs.flatMapLatest { (_: Int) throws -> Observable<Int> in throw TestError.boom }
    }
    #expect(res.events == [.error(210, TestError.boom)])
  }
}
