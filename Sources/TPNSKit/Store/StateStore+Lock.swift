#if canImport(Glibc)
  import Glibc
#endif

extension StateStore {
  /// An exclusive `flock` on the store's lock file, held while the
  /// read-modify-write runs: the lock is on a separate file because the store
  /// file itself is replaced by rename on every write.
  ///
  /// Each acquisition opens the lock file anew, so threads of one process
  /// exclude each other as processes do.
  final class Lock: @unchecked Sendable {
    // @unchecked: `descriptor` changes only in `release()`, which the holder
    // calls once (a second call finds it closed).
    private var descriptor: Int32

    /// Waits for the lock file beside the store at `location` whose name
    /// ends in `suffix` (`.lock` gives `state.plist.lock`; it is created, mode
    /// 0600, if missing) for at most `timeout`, polling with a growing pause.
    /// A lock file that another user owns is refused at once, not waited on
    /// (see ``StoreDirectory/openLock(_:)``). A lock won on a file that was
    /// meanwhile removed or replaced (someone deleted it) is no lock: the
    /// file is opened again, so that every holder locks the same file.
    init(_ suffix: String, beside location: Location, timeout: Duration) throws(StoreError) {
      let name = location.name + suffix
      let path = location.path + suffix
      let deadline = ContinuousClock.now + timeout
      var pause = Duration.milliseconds(1)
      while true {
        let (descriptor, opened) = try location.directory.openLock(name)
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
          let named = try? location.directory.status(of: name)
          if let named, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino {
            self.descriptor = descriptor
            return
          }
          close(descriptor)
          continue
        }
        let failure = errno
        close(descriptor)
        guard failure == EWOULDBLOCK || failure == EINTR else {
          throw .io(operation: "lock", path: path, errno: failure)
        }
        guard ContinuousClock.now < deadline else {
          throw .lockTimeout(
            lockPath: path,
            seconds: Int(
              (Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
                .rounded()))
        }
        Self.pause(pause)
        pause = min(pause * 2, .milliseconds(50))
      }
    }

    /// Releases the lock (closing the descriptor releases the flock).
    func release() {
      guard descriptor >= 0 else { return }
      close(descriptor)
      descriptor = -1
    }

    deinit {
      release()
    }

    private static func pause(_ duration: Duration) {
      let (seconds, attoseconds) = duration.components
      var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
      var remaining = timespec()
      while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
  }
}
