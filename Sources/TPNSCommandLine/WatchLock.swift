import ArgumentParsing
import TPNSKit

#if canImport(Glibc)
  import Glibc
#endif

/// The one `tpns watch` of a store: an exclusive `flock` on
/// `state.plist.watch.lock` (beside a link's target, as the store's other
/// locks), which holds the watcher's pid so that a second
/// one can say who is watching. The kernel drops the lock when the process
/// ends, however it ends.
struct WatchLock {
  private let descriptor: Int32

  /// Takes the lock, or fails with exit status 75 naming the holder.
  init(store: StateStore) throws {
    let path: String
    do {
      path = try store.companionPath(".watch.lock")
    } catch {
      throw CommandFailure(
        error.description, hint: error.suggestion, exitCode: ExitStatus.of(error))
    }
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else {
      throw CommandFailure(
        "cannot open \(path): \(String(cString: strerror(errno)))",
        exitCode: ExitStatus.cannotCreate)
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let holder = Self.readPID(descriptor)
      close(descriptor)
      throw CommandFailure(
        "another tpns watch\(holder.map { " (pid \($0))" } ?? "") is watching \(store.path)",
        hint: "Stop it first, or watch another store with --store.", exitCode: ExitStatus.temporary)
    }
    ftruncate(descriptor, 0)
    let pid = "\(getpid())\n"
    _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    self.descriptor = descriptor
  }

  /// Releases the lock.
  func release() {
    ftruncate(descriptor, 0)
    close(descriptor)
  }

  private static func readPID(_ descriptor: Int32) -> Int? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return Int(String(decoding: buffer[..<count], as: UTF8.self).trimmingWhitespace())
  }
}
