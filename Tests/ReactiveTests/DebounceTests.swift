import Reactive
import ReactiveTesting
import Testing

@Suite struct DebounceTests {
  @Test("a burst within the window becomes its last element, due after the window")
  func burst() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(400, 4), .completed(600),
    ])
    let res = scheduler.start { xs.debounce(.milliseconds(50), scheduler: scheduler) }
    #expect(res.events == [.next(280, 3), .next(450, 4), .completed(600)])
    #expect(xs.subscriptions == [Subscription(200, 600)])
  }

  @Test("completion sends the element still waiting first")
  func completionFlushes() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let res = scheduler.start { xs.debounce(.milliseconds(50), scheduler: scheduler) }
    #expect(res.events == [.next(220, 1), .completed(220)])
  }

  @Test("an error drops the element still waiting")
  func errorDrops() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
    let res = scheduler.start { xs.debounce(.milliseconds(50), scheduler: scheduler) }
    #expect(res.events == [.error(220, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("the window is measured on the scheduler's clock, in its resolution")
  func resolution() {
    let scheduler = TestScheduler(initialClock: 0, resolution: .seconds(1))
    let xs = scheduler.createHotObservable([.next(210, 1), .next(211, 2)])
    let res = scheduler.start { xs.debounce(.milliseconds(1500), scheduler: scheduler) }
    #expect(res.events == [.next(213, 2)])
  }

  @Test("disposal cancels the pending element")
  func disposal() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1)])
    let res = scheduler.start(disposed: 230) {
      xs.debounce(.milliseconds(50), scheduler: scheduler)
    }
    #expect(res.events == [])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }
}
