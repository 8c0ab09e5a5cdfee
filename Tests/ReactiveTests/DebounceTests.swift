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

  @Test(
    "with a max delay: sends after the quiet period or the max delay, whichever comes first",
    arguments: [
      // A quiet gap: each element after the debounce, the max delay never reached.
      (50, 500, [Recorded.next(210, 1), .next(400, 2)], [Recorded.next(260, 1), .next(450, 2)]),
      // A burst that outlasts the max delay: its newest element at 210 + 75,
      // then the rest after the debounce.
      (
        50, 75, [.next(210, 1), .next(240, 2), .next(270, 3), .next(300, 4)],
        [.next(285, 3), .next(350, 4)]
      ),
      // Both timers due at once: the element is sent once.
      (50, 50, [.next(210, 1)], [.next(260, 1)]),
      // A max delay shorter than the debounce wins.
      (100, 30, [.next(210, 1)], [.next(240, 1)]),
      // Completion sends the element still waiting.
      (
        50, 100, [.next(210, 1), .next(230, 2), .completed(240)], [.next(240, 2), .completed(240)]
      ),
    ] as [(Int, Int, [Recorded<Event<Int>>], [Recorded<Event<Int>>])])
  func maxDelay(
    dueTime: Int, maxDelay: Int, events: [Recorded<Event<Int>>], expected: [Recorded<Event<Int>>]
  ) {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable(events)
    let res = scheduler.start {
      xs.debounce(.milliseconds(dueTime), maxDelay: .milliseconds(maxDelay), scheduler: scheduler)
    }
    #expect(res.events == expected)
  }

  @Test(
    "a burst every 80 ticks (debounce 200, max delay 2000) sends each element within 2000 ticks")
  func endlessBurst() {
    let scheduler = TestScheduler()
    // Elements 0..<60 at 210, 290, …, 4930; then quiet.
    let times = (0..<60).map { 210 + $0 * 80 }
    let xs = scheduler.createHotObservable(times.enumerated().map { Recorded.next($1, $0) })
    let res = scheduler.start(disposed: 10_000) {
      xs.debounce(.milliseconds(200), maxDelay: .milliseconds(2000), scheduler: scheduler)
    }
    // The window opened at 210 closes at 2210 with the element that came then;
    // the next opens with the element at 2290, and so on; the last after the debounce.
    #expect(res.events == [.next(2210, 25), .next(4290, 51), .next(5130, 59)])
    // No element waits more than the max delay for a send of it or a newer one.
    let waits = times.enumerated().map { index, time in
      (res.events.first { $0.value.element.map { $0 >= index } ?? false }?.time ?? .max) - time
    }
    #expect(waits.max() == 2000)
  }

  @Test("with a max delay, an error passes through and drops the element still waiting")
  func maxDelayError() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
    let res = scheduler.start {
      xs.debounce(.milliseconds(50), maxDelay: .milliseconds(100), scheduler: scheduler)
    }
    #expect(res.events == [.error(220, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("with a max delay, disposal cancels both timers")
  func maxDelayDisposal() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    let res = scheduler.start(disposed: 230) {
      xs.debounce(.milliseconds(50), maxDelay: .milliseconds(30), scheduler: scheduler)
    }
    #expect(res.events == [])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }
}
