import Reactive
import ReactiveTesting
import Testing

@Suite struct StartWithTests {
  @Test("the given elements come first, at subscription time")
  func prefix() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(150, 0), .next(220, 3), .completed(300)])
    let res = scheduler.start { xs.startWith(1, 2) }
    #expect(res.events == [.next(200, 1), .next(200, 2), .next(220, 3), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("an error from the source passes through after the prefix")
  func sourceError() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.error(210, TestError.boom, Int.self)])
    let res = scheduler.start { xs.startWith(1) }
    #expect(res.events == [.next(200, 1), .error(210, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 210)])
  }
}
