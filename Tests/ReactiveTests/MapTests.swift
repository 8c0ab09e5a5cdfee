import Reactive
import ReactiveTesting
import Testing

@Suite struct MapTests {
  @Test("the RxTest introduction's map test: scheduleAt, subscribe, start, then compare")
  func rxTestIntroduction() {
    // 1. A scheduler at virtual time 0.
    let scheduler = TestScheduler(initialClock: 0)
    // 2. A hot observable with values at given virtual times.
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 0), .next(240, 4), .completed(300),
    ])
    // 3. A recording observer.
    let observer = scheduler.createObserver(Int.self)
    let bag = DisposeBag()
    // 4. Subscribe at 200.
    scheduler.scheduleAt(200) { xs.map { $0 * 2 }.subscribe(observer).disposed(by: bag) }
    // 5. Run.
    scheduler.start()
    // 6. What the observer received, and when xs was subscribed.
    #expect(observer.events == [.next(210, 0 * 2), .next(240, 4 * 2), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("start() runs the same scenario in one call")
  func withStart() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 0), .next(240, 4), .completed(300),
    ])
    let res = scheduler.start { xs.map { $0 * 2 } }
    #expect(res.events == [.next(210, 0), .next(240, 8), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("an error from the source passes through and ends the subscription")
  func sourceError() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([
      .next(210, 1), .error(250, TestError.boom), .next(260, 2),
    ])
    let res = scheduler.start { xs.map { $0 + 1 } }
    #expect(res.events == [.next(210, 2), .error(250, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 250)])
  }

  @Test("a throwing transform ends the sequence with its error and disposes the source")
  func throwingTransform() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
    let res = scheduler.start {
      xs.map { value -> Int in
        if value == 2 { throw TestError.boom }
        return value * 10
      }
    }
    #expect(res.events == [.next(210, 10), .error(220, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal stops delivery and unsubscribes at the disposal time")
  func disposal() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2)])
    let res = scheduler.start(disposed: 400) { xs.map { $0 } }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 400)])
  }
}
