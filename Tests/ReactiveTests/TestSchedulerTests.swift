import Locking
import Reactive
import ReactiveTesting
import Testing

@Suite struct TestSchedulerTests {
  @Test("a hot observable sends at absolute times; a cold one relative to each subscription")
  func hotAndCold() {
    let scheduler = TestScheduler()
    let hot = scheduler.createHotObservable([.next(150, "h1"), .next(250, "h2")])
    let cold = scheduler.createColdObservable([.next(50, "c")])
    let early = scheduler.createObserver(String.self)
    let late = scheduler.createObserver(String.self)
    let bag = DisposeBag()
    scheduler.scheduleAt(100) {
      hot.subscribe(early).disposed(by: bag)
      cold.subscribe(early).disposed(by: bag)
    }
    scheduler.scheduleAt(200) {
      hot.subscribe(late).disposed(by: bag)
      cold.subscribe(late).disposed(by: bag)
    }
    scheduler.start()
    // At equal times, what was scheduled first runs first: the hot events were
    // scheduled when the observable was made, the cold ones at each subscription.
    #expect(early.events == [.next(150, "h1"), .next(150, "c"), .next(250, "h2")])
    #expect(late.events == [.next(250, "h2"), .next(250, "c")])
    #expect(hot.subscriptions == [Subscription(100), Subscription(200)])
  }

  @Test("start() creates at 100, subscribes at 200 and disposes at 1000 by default")
  func startDefaults() {
    let scheduler = TestScheduler()
    let created = LockedState<Int?>(nil)
    let xs = scheduler.createHotObservable([.next(199, 0), .next(999, 1), .next(1001, 2)])
    let res = scheduler.start { () -> TestableObservable<Int> in
      created.withLock { $0 = scheduler.clock }
      return xs
    }
    #expect(created.value == 100)
    #expect(res.events == [.next(999, 1)])
    #expect(xs.subscriptions == [Subscription(200, 1000)])
  }

  @Test("recorded events and subscriptions print like marble diagrams")
  func descriptions() {
    let events: [Recorded<Event<Int>>] = [
      .next(210, 1), .error(220, TestError.boom), .completed(300),
    ]
    #expect(events.map(\.description) == ["next(1) @ 210", "error(boom) @ 220", "completed @ 300"])
    #expect(Subscription(200, 300).description == "(200, 300)")
    #expect(Subscription(200).description == "(200, ∞)")
  }

  @Test(
    "events compare by value, time and error identity",
    arguments: [
      (Recorded<Event<Int>>.next(1, 1), Recorded<Event<Int>>.next(1, 1), true),
      (.next(1, 1), .next(2, 1), false),
      (.next(1, 1), .next(1, 2), false),
      (.error(1, TestError.boom), .error(1, TestError.boom), true),
      (.error(1, TestError.boom), .error(1, TestError.other), false),
      (.completed(1), .completed(1), true),
      (.completed(1), .next(1, 0), false),
    ])
  func equality(lhs: Recorded<Event<Int>>, rhs: Recorded<Event<Int>>, equal: Bool) {
    #expect((lhs == rhs) == equal)
  }
}
