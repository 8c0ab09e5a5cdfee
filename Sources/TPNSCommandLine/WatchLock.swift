import ArgumentParsing
import TPNSKit

#if canImport(Glibc)
  import Glibc
#endif

/// The one `tpns watch` of a store: an exclusive `flock` on
/// `state.plist.watch.lock` (beside a link's target, as the store's other
/// locks), which holds the watcher's pid so that a second
/// one can say who is watching. The kernel drops the lock when the process
/// ends, however it ends. When the store's directory is replaced, the lock
/// file goes with the old one: ``follow(_:)`` takes it again at the new place.
struct WatchLock {
  private static let suffix = ".watch.lock"
  private var descriptor: Int32

  /// Takes the lock, creating the store's directories if missing, or fails
  /// with exit status 75 naming the holder.
  init(store: StateStore) throws {
    let path: String
    do {
      path = try store.companionPath(Self.suffix)
    } catch {
      throw Self.failure(error)
    }
    try self.init(path: path, store: store)
  }

  private init(path: String, store: StateStore) throws {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else {
      throw CommandFailure(
        "cannot open \(path): \(String(cString: strerror(errno)))".escapingControlCharacters,
        hint: "Check the permissions of the store's directory, or pass another path with --store.",
        exitCode: ExitStatus.cannotCreate)
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let holder = Self.readPID(descriptor)
      close(descriptor)
      throw CommandFailure(
        "another tpns watch\(holder.map { " (pid \($0))" } ?? "") is watching \(store.path)"
          .escapingControlCharacters,
        hint: "Stop it first, or watch another store with --store.", exitCode: ExitStatus.temporary)
    }
    ftruncate(descriptor, 0)
    let pid = "\(getpid())\n"
    _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    self.descriptor = descriptor
  }

  /// Takes the lock again if the file it holds is no longer the one beside
  /// the store (its directory was replaced, or a link re-pointed), and lets
  /// the old one go; fails as `init` does if another watch holds the new
  /// one. Does nothing while the store's directory is missing: it is taken
  /// when the directory is back.
  mutating func follow(_ store: StateStore) throws {
    let path: String?
    do {
      path = try store.existingCompanionPath(Self.suffix)
    } catch {
      throw Self.failure(error)
    }
    guard let path, !isHeld(at: path) else { return }
    let moved = try WatchLock(path: path, store: store)
    release()
    self = moved
  }

  /// Releases the lock.
  func release() {
    ftruncate(descriptor, 0)
    close(descriptor)
  }

  /// Whether the file at `path` is the one this lock holds.
  private func isHeld(at path: String) -> Bool {
    var held = stat()
    var current = stat()
    guard fstat(descriptor, &held) == 0, lstat(path, &current) == 0 else { return false }
    return held.st_dev == current.st_dev && held.st_ino == current.st_ino
  }

  private static func failure(_ error: StoreError) -> CommandFailure {
    CommandFailure(
      error.description.escapingControlCharacters,
      hint: error.suggestion.escapingControlCharacters, exitCode: ExitStatus.of(error))
  }

  private static func readPID(_ descriptor: Int32) -> Int? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return Int(String(decoding: buffer[..<count], as: UTF8.self).trimmingWhitespace())
  }
}
