import Reactive
import ReactiveTesting
import Testing

@Suite struct ConcatMapLatestTests {
  @Test("three elements during one running inner give exactly one more, for the newest")
  func coalesces() {
    let scheduler = TestScheduler()
    let request = scheduler.createColdObservable([.next(50, "sent"), .completed(50)])
    let changes = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(500),
    ])
    let res = scheduler.start { changes.concatMapLatest { n in request.map { "\($0) \(n)" } } }
    #expect(res.events == [.next(260, "sent 1"), .next(310, "sent 4"), .completed(500)])
    #expect(request.subscriptions == [Subscription(210, 260), Subscription(260, 310)])
  }

  @Test("the running inner is never cancelled by a new element")
  func neverCancels() {
    let scheduler = TestScheduler()
    let slow = scheduler.createColdObservable([.next(100, 0), .completed(100)])
    let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2)])
    let res = scheduler.start { xs.concatMapLatest { _ in slow } }
    #expect(res.events == [.next(310, 0), .next(410, 0)])
    #expect(slow.subscriptions == [Subscription(210, 310), Subscription(310, 410)])
  }

  @Test("completes only when the outer has completed and nothing runs or waits")
  func completion() {
    let scheduler = TestScheduler()
    let inner = scheduler.createColdObservable([.completed(30, Int.self)])
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(225)])
    let res = scheduler.start { xs.concatMapLatest { _ in inner } }
    #expect(res.events == [.completed(270)])
    #expect(inner.subscriptions == [Subscription(210, 240), Subscription(240, 270)])
  }

  @Test("an inner error ends everything")
  func innerError() {
    let scheduler = TestScheduler()
    let failing = scheduler.createColdObservable([.error(10, TestError.boom, Int.self)])
    let xs = scheduler.createHotObservable([.next(210, 1), .next(300, 2)])
    let res = scheduler.start { xs.concatMapLatest { _ in failing } }
    #expect(res.events == [.error(220, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("an outer error ends everything, disposing the running inner")
  func outerError() {
    let scheduler = TestScheduler()
    let inner = scheduler.createColdObservable([.next(100, 1)])
    let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError.other)])
    let res = scheduler.start { xs.concatMapLatest { _ in inner } }
    #expect(res.events == [.error(250, TestError.other)])
    #expect(inner.subscriptions == [Subscription(210, 250)])
  }

  @Test("a throwing selector ends the sequence with its error")
  func throwingSelector() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1)])
    let res = scheduler.start {
      xs.concatMapLatest { (_: Int) throws -> Observable<Int> in throw TestError.boom }
    }
    #expect(res.events == [.error(210, TestError.boom)])
  }
}
