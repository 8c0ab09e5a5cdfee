#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutual-exclusion lock over a heap-allocated `pthread_mutex_t`.
///
/// The mutex lives on the heap so that its address never changes, and it is a
/// plain pthread mutex so that ThreadSanitizer sees every acquire and release
/// (on Linux it reports false races on `Synchronization.Mutex`, whose futex it
/// does not understand). Costs one allocation per lock; locking is a pthread call.
///
///     let lock = Lock()
///     lock.withLock { counter += 1 }
public final class Lock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Creates a lock; a `recursive` one may be taken again by the thread that holds it.
  public init(recursive: Bool = false) {
    mutex = .allocate(capacity: 1)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    defer { pthread_mutexattr_destroy(&attributes) }
    let kind = recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_ERRORCHECK
    pthread_mutexattr_settype(&attributes, Int32(kind))
    let status = pthread_mutex_init(mutex, &attributes)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Acquires the lock, waiting as long as it takes.
  public func lock() {
    let status = pthread_mutex_lock(mutex)
    precondition(status == 0, "pthread_mutex_lock failed: \(status)")
  }

  /// Releases the lock, which the calling thread must hold.
  public func unlock() {
    let status = pthread_mutex_unlock(mutex)
    precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
  }

  /// Runs `body` while holding the lock.
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}
