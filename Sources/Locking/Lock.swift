import CLinux
import Glibc

/// A mutual-exclusion lock, the project's one: a `pthread_mutex_t` on the heap (its
/// address never changes), adaptive (critical sections here are short). Not
/// `Synchronization.Mutex`: on Linux ThreadSanitizer, which the suites run under, does
/// not see its futex and reports false races. Costs one allocation per lock and an
/// uncontended atomic per acquisition.
///
///     let lock = Lock()
///     lock.withLock { counter += 1 }
public final class Lock: @unchecked Sendable {
  // @unchecked: the pthread mutex is itself the synchronisation primitive;
  // internal, for ``Condition`` to wait on.
  let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Creates an unlocked lock.
  public init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    defer { pthread_mutexattr_destroy(&attributes) }
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    let status = pthread_mutex_init(mutex, &attributes)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Acquires the lock, waiting as long as it takes.
  public func lock() {
    // Tried again for a while before sleeping, longer than glibc's adaptive mutex
    // spins: each serving thread of the emulator (`--threads`) takes the registry's
    // lock for one SQLite statement (microseconds) a request, and a sleep and
    // wake-up (an inter-processor interrupt on a virtual machine) cost more than
    // that wait.
    for _ in 0..<Self.attemptsBeforeSleeping where pthread_mutex_trylock(mutex) == 0 { return }
    pthread_mutex_lock(mutex)
  }

  /// How often ``lock()`` tries before it sleeps: about the time of one SQLite
  /// statement, and not at all where the process may run on one processor only
  /// (its affinity: `taskset`, a container's cpuset), since the holder cannot run
  /// while this thread spins.
  static let attemptsBeforeSleeping = tpns_usable_processors() > 1 ? 2000 : 0

  /// Releases the lock, which the calling thread must hold.
  public func unlock() {
    pthread_mutex_unlock(mutex)
  }

  /// Runs `body` while holding the lock; its error, typed or not, passes through.
  public func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}
