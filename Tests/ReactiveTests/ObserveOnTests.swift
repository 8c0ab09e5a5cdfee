import Dispatch
import Locking
import Reactive
import ReactiveTesting
import Testing

@Suite struct ObserveOnTests {
  @Test("events are delivered through the scheduler, in order")
  func virtualTime() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .completed(300),
    ])
    let res = scheduler.start { xs.observe(on: scheduler) }
    #expect(res.events == [.next(210, 1), .next(220, 2), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("an error is delivered through the scheduler")
  func error() {
    let scheduler = TestScheduler()
    let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
    let res = scheduler.start { xs.observe(on: scheduler) }
    #expect(res.events == [.next(210, 1), .error(220, TestError.boom)])
  }

  @Test("nothing runs until the scheduler runs it")
  func deferredDelivery() {
    let scheduler = TestScheduler()
    let received = LockedState<[Int]>([])
    let subscription = Observable.of(1, 2, 3).observe(on: scheduler)
      .subscribe(onNext: { value in received.withLock { $0.append(value) } })
    #expect(received.value == [])
    scheduler.start()
    #expect(received.value == [1, 2, 3])
    subscription.dispose()
  }

  @Test("disposal drops the events not yet delivered")
  func disposalDrops() {
    let scheduler = TestScheduler()
    let received = LockedState<[Int]>([])
    let subscription = Observable.of(1, 2, 3).observe(on: scheduler)
      .subscribe(onNext: { value in received.withLock { $0.append(value) } })
    subscription.dispose()
    scheduler.start()
    #expect(received.value == [])
  }

  @Test("on a serial queue, every event arrives on that queue, in order")
  func serialQueue() throws {
    let queue = DispatchQueue(label: "observe-on-test")
    let key = DispatchSpecificKey<String>()
    queue.setSpecific(key: key, value: "observe-on-test")
    let scheduler = SerialDispatchQueueScheduler(queue: queue)
    let labels = try Observable.from(Array(0..<100)).observe(on: scheduler)
      .map { (value: $0, queue: DispatchQueue.getSpecific(key: key)) }
      .toBlocking(timeout: .seconds(10)).toArray()
    #expect(labels.map(\.value) == Array(0..<100))
    #expect(Set(labels.map(\.queue)) == ["observe-on-test"])
  }
}
