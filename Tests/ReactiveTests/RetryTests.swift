import Locking
import Reactive
import ReactiveTesting
import Testing

@Suite struct RetryTests {
  @Test("resubscribes after each failure, waiting on the scheduler's clock, until success")
  func retriesUntilSuccess() {
    let scheduler = TestScheduler()
    let attempts = LockedState(0)
    let request = Observable<String>.deferred {
      let attempt = attempts.withLock { attempts in
        attempts += 1
        return attempts
      }
      return attempt < 3 ? .error(TestError.boom) : .just("ok")
    }
    let res = scheduler.start {
      request.retry(maxAttempts: 3, on: scheduler) { attempt in .milliseconds(100 * attempt) }
    }
    // Fails at 200, waits 100; fails at 300, waits 200; succeeds at 500.
    #expect(res.events == [.next(500, "ok"), .completed(500)])
    #expect(attempts.value == 3)
  }

  @Test("after the last attempt, fails with its error; subscriptions show each attempt")
  func givesUp() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.next(10, 1), .error(20, TestError.boom)])
    let res = scheduler.start(disposed: 2000) {
      xs.retry(maxAttempts: 3, on: scheduler) { _ in .milliseconds(50) }
    }
    #expect(
      res.events == [
        .next(210, 1), .next(280, 1), .next(350, 1), .error(360, TestError.boom),
      ])
    #expect(
      xs.subscriptions == [Subscription(200, 220), Subscription(270, 290), Subscription(340, 360)])
  }

  @Test("the decision sees the error and the attempt number, and may fail with a clearer error")
  func decision() {
    let scheduler = TestScheduler()
    let seen = LockedState<[Int]>([])
    let xs = scheduler.createColdObservable([.error(5, TestError.boom, Int.self)])
    let res = scheduler.start {
      xs.retry(on: scheduler) { error, attempt in
        seen.withLock { $0.append(attempt) }
        guard error as? TestError == .boom, attempt < 2 else { return .fail(TestError.other) }
        return .retry(after: .milliseconds(10))
      }
    }
    #expect(seen.value == [1, 2])
    #expect(res.events == [.error(220, TestError.other)])
  }

  @Test("completion passes through without a retry")
  func completion() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    let res = scheduler.start { xs.retry(maxAttempts: 3, on: scheduler) { _ in .seconds(1) } }
    #expect(res.events == [.next(210, 1), .completed(220)])
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("disposal during the wait cancels the next attempt")
  func disposalDuringWait() {
    let scheduler = TestScheduler()
    let xs = scheduler.createColdObservable([.error(10, TestError.boom, Int.self)])
    let res = scheduler.start(disposed: 300) {
      xs.retry(maxAttempts: 5, on: scheduler) { _ in .milliseconds(500) }
    }
    #expect(res.events == [])
    #expect(xs.subscriptions == [Subscription(200, 210)])
  }
}
