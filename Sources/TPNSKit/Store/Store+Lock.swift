import DurationFormatting
import Glibc

extension Store {
  /// Waits at most `timeout`, polling with a growing pause, for an exclusive
  /// ``FileLock`` on the file beside the store whose name ends in `suffix`
  /// (`.lock`: `state.plist.lock`): a separate file, because the store is
  /// replaced by rename on every write. Each attempt opens the file anew, so
  /// threads of one process exclude each other as processes do; a lock won
  /// on a file since removed or replaced is no lock, and is taken again.
  static func lock(
    _ suffix: String, beside location: Location, timeout: Duration
  ) throws(StoreError) -> FileLock {
    let name = location.name + suffix
    let path = location.path + suffix
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(1)
    while true {
      let (descriptor, opened) = try location.directory.openLock(name)
      let won: FileLock?
      do {
        won = try FileLock(trying: descriptor)
      } catch {
        close(descriptor)
        throw .io(operation: "lock", path: path, errno: error.code)
      }
      if let won {
        let named = try? location.directory.status(of: name)
        if let named, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino {
          return won
        }
        won.release()
        continue
      }
      close(descriptor)
      guard ContinuousClock.now < deadline else {
        throw .lockTimeout(lockPath: path, seconds: Int(timeout.rounded(to: .seconds)))
      }
      usleep(useconds_t(pause / .microseconds(1)))
      pause = min(pause * 2, .milliseconds(50))
    }
  }

  /// The file beside the store whose name ends in `suffix` (`.watch.lock`:
  /// `state.plist.watch.lock`, beside a link's target as the store's locks
  /// are), opened as a lock file is (``StoreDirectory/openLock(_:)``).
  /// Creates the store's directories if `creatingDirectories`; otherwise nil
  /// while the directory is missing. The caller closes the descriptor.
  public func openCompanion(
    _ suffix: String, creatingDirectories: Bool
  ) throws(StoreError) -> Int32? {
    guard let location = try locate(creating: creatingDirectories) else { return nil }
    return try location.directory.openLock(location.name + suffix).descriptor
  }
}
