import Dispatch
import Locking
import Reactive
import ReactiveTesting
import Testing

@Suite struct SubscribeOnTests {
  @Test("the subscription and its disposal happen through the scheduler")
  func virtualTime() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .next(400, 2)])
    let res = scheduler.start(disposed: 300) { xs.subscribe(on: scheduler) }
    #expect(res.events == [.next(210, 1)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("completion and errors pass through")
  func terminal() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
    let res = scheduler.start { xs.subscribe(on: scheduler) }
    #expect(res.events == [.next(210, 1), .error(220, TestError.boom)])
  }

  @Test("disposing before the scheduler runs means no subscription at all")
  func disposedEarly() {
    let scheduler = TestScheduler()
    let subscribed = LockedState(false)
    let source = Observable<Int>.create { _ in
      subscribed.withLock { $0 = true }
      return Disposables.create()
    }
    source.subscribe(on: scheduler).subscribe { _ in }.dispose()
    scheduler.start()
    #expect(subscribed.value == false)
  }

  @Test("the side effects of subscribing run on the scheduler's queue")
  func serialQueue() throws {
    let queue = DispatchQueue(label: "subscribe-on-test")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "subscribe-on-test")
    let scheduler = SerialDispatchQueueScheduler(queue: queue)
    let label = try Observable<String?>
      .deferred { .just(DispatchQueue.getSpecific(key: key)) }
      .subscribe(on: scheduler)
      .toBlocking(timeout: .seconds(10)).first()
    #expect(label == "subscribe-on-test")
  }
}
