import Glibc

/// A ``Lock`` with a condition variable (`pthread_cond_t`, on the monotonic
/// clock): a thread waits, with the mutex held, until another signals a
/// change it made under the mutex. ThreadSanitizer understands both.
///
///     condition.withLock { ready = true }
///     condition.broadcast()
///     condition.withLock { while !ready { condition.wait(forNanoseconds: nil) } }
public final class Condition: @unchecked Sendable {
  // @unchecked: the lock and the pthread condition are the synchronisation.
  private let lock = Lock()
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  public init() {
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    defer { pthread_condattr_destroy(&attributes) }
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
  }

  /// Runs `body` while holding the mutex.
  public func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try lock.withLock(body)
  }

  /// Waits for a signal, at most `nanoseconds` (nil: as long as it takes);
  /// the caller holds the mutex (inside ``withLock(_:)``), which is released
  /// while waiting. May return early (spuriously): check the state again.
  public func wait(forNanoseconds nanoseconds: Int64?) {
    guard let nanoseconds else {
      pthread_cond_wait(condition, lock.mutex)
      return
    }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let total = Int64(now.tv_nsec) + max(nanoseconds, 0)
    var until = timespec()
    until.tv_sec = now.tv_sec + Int(total / 1_000_000_000)
    until.tv_nsec = Int(total % 1_000_000_000)
    pthread_cond_timedwait(condition, lock.mutex, &until)
  }

  /// Wakes every waiting thread.
  public func broadcast() {
    pthread_cond_broadcast(condition)
  }
}
