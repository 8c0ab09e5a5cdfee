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
    // Adaptive: spins briefly before sleeping, as the critical sections are short
    // and a futex sleep/wake costs more than they do.
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
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
