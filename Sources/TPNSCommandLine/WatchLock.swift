import ArgumentParsing
import Glibc
import TPNSKit
import TPNSProtocol

/// The one `tpns watch` of a store: an exclusive ``FileLock`` on
/// `state.plist.watch.lock`, holding the watcher's pid for a second one to
/// name. ``follow(_:)`` takes it again when the store's directory is replaced.
struct WatchLock {
  private static let suffix = ".watch.lock"
  private let lock: FileLock

  /// Takes the lock, creating the store's directories if missing, or fails
  /// with exit status 75 naming the holder (73 if the lock file belongs to
  /// another user: see ``Store/openCompanion(_:creatingDirectories:)``).
  init(store: Store) throws {
    guard let opened = try Self.open(store, creatingDirectories: true) else {
      throw Self.failure(.io(operation: "create the directory", path: store.path, errno: ENOENT))
    }
    try self.init(locking: opened, store: store)
  }

  /// Locks the open lock file `descriptor` and writes this pid in it, or
  /// closes it and fails naming the holder.
  private init(locking descriptor: Int32, store: Store) throws {
    guard let lock = try? FileLock(trying: descriptor) else {
      let holder = Self.readPID(descriptor)
      close(descriptor)
      throw CommandFailure(
        "another tpns watch\(holder.map { " (pid \($0))" } ?? "") is watching \(store.path)"
          .escapingControlCharacters,
        hint: "Stop it first, or watch another store with --store.", exitCode: ExitStatus.temporary)
    }
    ftruncate(lock.descriptor, 0)
    let pid = "\(getpid())\n"
    _ = pid.withCString { pwrite(lock.descriptor, $0, strlen($0), 0) }
    self.lock = lock
  }

  /// Takes the lock again if the file it holds is no longer the one beside
  /// the store, and lets the old one go; fails as `init` does if another
  /// watch holds the new one. Does nothing while the directory is missing.
  mutating func follow(_ store: Store) throws {
    guard let opened = try Self.open(store, creatingDirectories: false) else { return }
    if isHeld(opened) {
      close(opened)
      return
    }
    let moved = try WatchLock(locking: opened, store: store)
    release()
    self = moved
  }

  func release() {
    ftruncate(lock.descriptor, 0)
    lock.release()
  }

  /// Whether `other` is open on the file this lock holds.
  private func isHeld(_ other: Int32) -> Bool {
    var held = stat()
    var current = stat()
    guard fstat(lock.descriptor, &held) == 0, fstat(other, &current) == 0 else { return false }
    return held.st_dev == current.st_dev && held.st_ino == current.st_ino
  }

  private static func open(_ store: Store, creatingDirectories: Bool) throws -> Int32? {
    do {
      return try store.openCompanion(suffix, creatingDirectories: creatingDirectories)
    } catch {
      throw failure(error)
    }
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
