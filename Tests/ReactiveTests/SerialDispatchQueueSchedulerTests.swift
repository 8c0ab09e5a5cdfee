import Dispatch
import Glibc
import Locking
import Reactive
import Testing

@Suite struct SerialDispatchQueueSchedulerTests {
  @Test("a delayed action runs after its delay, and the clock moved at least that much")
  func delay() throws {
    let scheduler = SerialDispatchQueueScheduler(label: "delay-test")
    let done = DispatchSemaphore(value: 0)
    let start = scheduler.now
    let ranAt = LockedState<Duration?>(nil)
    scheduler.schedule(after: .milliseconds(20)) {
      ranAt.withLock { $0 = scheduler.now }
      done.signal()
    }
    #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
    let elapsed = try #require(ranAt.value) - start
    #expect(elapsed >= .milliseconds(20))
  }

  @Test("a cancelled action never runs")
  func cancelled() {
    let scheduler = SerialDispatchQueueScheduler(label: "cancel-test")
    let ran = LockedState(false)
    let done = DispatchSemaphore(value: 0)
    scheduler.queue.suspend()
    scheduler.schedule { ran.withLock { $0 = true } }.dispose()
    scheduler.schedule { done.signal() }
    scheduler.queue.resume()
    #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
    #expect(ran.value == false)
  }

  @Test("debounce on real time: a burst becomes its last element")
  func debounceRealTime() throws {
    let scheduler = SerialDispatchQueueScheduler(label: "debounce-test")
    let subject = PublishSubject<Int>()
    // The source never completes, so only the real-time timer can deliver.
    let first = Observable.merge(subject.asObservable(), .never())
      .debounce(.milliseconds(10), scheduler: scheduler)
    let waiter = DispatchQueue(label: "debounce-waiter")
    let result = LockedState<Int?>(nil)
    let done = DispatchSemaphore(value: 0)
    waiter.async {
      result.withLock { $0 = try? first.toBlocking(timeout: .seconds(10)).first() }
      done.signal()
    }
    // Feed once the waiter is subscribed (poll with a deadline, never sleep).
    let deadline = ContinuousClock.now + .seconds(10)
    while !subject.hasObservers, ContinuousClock.now < deadline { sched_yield() }
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
    #expect(result.value == 3)
  }
}
