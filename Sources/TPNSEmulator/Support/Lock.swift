#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A mutual-exclusion lock over a heap-allocated `pthread_mutex_t`.
///
/// Not `Synchronization.Mutex`: ThreadSanitizer on Linux reports false races on it,
/// and the emulator's state must stay clean under `--sanitize=thread`. The mutex
/// lives on the heap so that its address never changes. Costs one uncontended
/// futex operation per `withLock`.
final class Lock: @unchecked Sendable {
  // @unchecked: the pthread mutex is itself the synchronisation primitive.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the lock held.
  func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
