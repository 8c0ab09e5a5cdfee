import Reactive
import ReactiveTesting
import Testing

@Suite struct MaterializeTests {
  @Test("elements and completion become elements, then completion")
  func completion() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let res = scheduler.start { xs.materialize() }
    #expect(res.events == [.next(210, .next(1)), .next(300, .completed), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("an error becomes an element, and the result completes instead of failing")
  func error() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError.boom)])
    let res = scheduler.start { xs.materialize() }
    #expect(
      res.events == [.next(210, .next(1)), .next(250, .error(TestError.boom)), .completed(250)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }
}
