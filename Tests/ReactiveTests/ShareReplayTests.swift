import Locking
import Reactive
import ReactiveTesting
import Testing

@Suite struct ShareReplayTests {
  @Test("share(replay: 1) connects once, replays the latest, disconnects after the last leaves")
  func replayOne() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(100, 3)])
    let shared = xs.share(replay: 1)
    let first = scheduler.createObserver(Int.self)
    let second = scheduler.createObserver(Int.self)
    let firstSubscription = SerialDisposable()
    let secondSubscription = SerialDisposable()
    scheduler.scheduleAt(200) { firstSubscription.setDisposable(shared.subscribe(first)) }
    scheduler.scheduleAt(250) { secondSubscription.setDisposable(shared.subscribe(second)) }
    scheduler.scheduleAt(280) { firstSubscription.dispose() }
    scheduler.scheduleAt(320) { secondSubscription.dispose() }
    scheduler.start()
    #expect(first.events == [.next(210, 1), .next(220, 2)])
    #expect(second.events == [.next(250, 2), .next(300, 3)])
    #expect(xs.subscriptions == [Subscription(200, 320)])
  }

  @Test("after every subscriber left, the next one connects anew with an empty buffer")
  func reconnects() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.next(10, 1)])
    let shared = xs.share(replay: 1)
    let first = scheduler.createObserver(Int.self)
    let second = scheduler.createObserver(Int.self)
    let firstSubscription = SerialDisposable()
    let secondSubscription = SerialDisposable()
    scheduler.scheduleAt(200) { firstSubscription.setDisposable(shared.subscribe(first)) }
    scheduler.scheduleAt(300) { firstSubscription.dispose() }
    scheduler.scheduleAt(400) { secondSubscription.setDisposable(shared.subscribe(second)) }
    scheduler.scheduleAt(500) { secondSubscription.dispose() }
    scheduler.start()
    #expect(first.events == [.next(210, 1)])
    #expect(second.events == [.next(410, 1)])
    #expect(xs.subscriptions == [Subscription(200, 300), Subscription(400, 500)])
  }

  @Test("share() without replay: late subscribers see only later elements")
  func noReplay() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
    let shared = xs.share()
    let late = scheduler.createObserver(Int.self)
    let bag = DisposeBag()
    scheduler.scheduleAt(250) { shared.subscribe(late).disposed(by: bag) }
    let res = scheduler.start { shared }
    #expect(res.events == [.next(210, 1), .next(260, 2), .completed(300)])
    #expect(late.events == [.next(260, 2), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("an error reaches every subscriber and ends the connection")
  func error() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .error(230, TestError.boom)])
    let shared = xs.share(replay: 1)
    let other = scheduler.createObserver(Int.self)
    let bag = DisposeBag()
    scheduler.scheduleAt(220) { shared.subscribe(other).disposed(by: bag) }
    let res = scheduler.start { shared }
    #expect(res.events == [.next(210, 1), .error(230, TestError.boom)])
    #expect(other.events == [.next(220, 1), .error(230, TestError.boom)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("the side effects of subscribing run once for all subscribers")
  func oneConnection() throws {
    let subscriptions = LockedState(0)
    let source = Observable<Int>.create { observer in
      subscriptions.withLock { $0 += 1 }
      observer.onNext(42)
      return Disposables.create()
    }
    let shared = source.share(replay: 1)
    let bag = DisposeBag()
    let received = LockedState<[Int]>([])
    for _ in 0..<3 {
      shared.subscribe(onNext: { value in received.withLock { $0.append(value) } })
        .disposed(by: bag)
    }
    #expect(subscriptions.value == 1)
    #expect(received.value == [42, 42, 42])
  }
}
