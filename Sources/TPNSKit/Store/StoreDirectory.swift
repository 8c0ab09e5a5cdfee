import Glibc

/// The directory that holds the store's file, opened once every directory on
/// the way from `/` has passed ``UntrustedReason/ofDirectory(_:)`` (this
/// user's or root's, writable by no one else unless sticky) and every link on
/// the way ``UntrustedReason/ofLink(_:isStore:)``: what ssh's `StrictModes`
/// asks of `~/.ssh`. Since no one else can change those directories, the
/// path keeps meaning the directory that was checked; and every operation on
/// the files in it goes through the open descriptor (`openat`, `renameat`,
/// `unlinkat`), with `O_NOFOLLOW`, so that nothing is looked up by path twice.
/// Costs an `lstat` per directory above the store's, an `open` and an `fstat`.
///
///     let directory = try StoreDirectory.open("/home/me/.config/tpns", creating: true)
final class StoreDirectory {
  let descriptor: Int32
  /// The path it was opened by, as given: what messages name.
  let path: String

  private init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }

  /// The directory at `path` after checking the way to it; nil if it does
  /// not exist, unless `creating`, which makes each missing directory (mode
  /// 0700). A refusal names the directory or link to fix.
  static func open(_ path: String, creating: Bool) throws(StoreError) -> StoreDirectory? {
    // The way, resolved as the kernel would, but one name at a time.
    var pending = Array(try absolute(path).split(separator: "/").reversed())
    var resolved = ""
    var links = 0
    while let name = pending.popLast() {
      if name == "." { continue }
      if name == ".." {
        resolved = String(resolved[..<(resolved.lastIndex(of: "/") ?? resolved.startIndex)])
        continue
      }
      let candidate = resolved + "/" + name
      // The last name, in the common case a directory: opened and checked at once.
      if pending.isEmpty, let directory = try opened(candidate, as: path) { return directory }
      var status = stat()
      guard lstat(candidate, &status) == 0 else {
        guard errno == ENOENT else { throw .io(operation: "open", path: candidate, errno: errno) }
        guard creating else { return nil }
        if mkdir(candidate, 0o700) != 0, errno != EEXIST {
          throw .io(operation: "create the directory", path: candidate, errno: errno)
        }
        // Checked again as it is now: someone else may have made it first.
        pending.append(name)
        continue
      }
      switch status.st_mode & S_IFMT {
      case S_IFDIR:
        if let reason = UntrustedReason.ofDirectory(status) {
          throw .untrusted(path: candidate, reason: reason)
        }
        resolved = candidate
      case S_IFLNK:
        if let reason = UntrustedReason.ofLink(status, isStore: false) {
          throw .untrusted(path: candidate, reason: reason)
        }
        links += 1
        guard links <= 40 else { throw .io(operation: "open", path: path, errno: ELOOP) }
        guard let destination = readLink(candidate) else {
          throw .io(operation: "read the link", path: candidate, errno: errno)
        }
        if destination.hasPrefix("/") { resolved = "" }
        pending += destination.split(separator: "/").reversed()
      default:
        throw .io(operation: "open", path: candidate, errno: ENOTDIR)
      }
    }
    // Only when the path ends in `..` (or is `/`): every name on the way is
    // a checked directory.
    guard let directory = try opened(resolved.isEmpty ? "/" : resolved, as: path) else {
      throw .io(operation: "open", path: path, errno: ENOENT)
    }
    return directory
  }

  /// The directory `real`, every directory above it checked, opened without
  /// following a link and checked in turn; nil if it is missing, a link or
  /// not a directory (for the caller to look at it name by name).
  private static func opened(_ real: String, as path: String) throws(StoreError) -> StoreDirectory?
  {
    let descriptor = Glibc.open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT || errno == ELOOP || errno == ENOTDIR { return nil }
      throw .io(operation: "open", path: path, errno: errno)
    }
    let directory = StoreDirectory(descriptor: descriptor, path: path)
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .io(operation: "open", path: path, errno: errno)
    }
    if let reason = UntrustedReason.ofDirectory(status) {
      throw .untrusted(path: real, reason: reason)
    }
    return directory
  }

  /// `/dir/name`, `/name`, or `name` for `.` (as ``AtomicFile/parentDirectory(of:)`` split it).
  func path(of name: String) -> String {
    switch path {
    case ".": name
    case "/": "/" + name
    default: path + "/" + name
    }
  }

  /// What `name` is here, without following a link; nil if it does not exist.
  func status(of name: String) throws(StoreError) -> stat? {
    var status = stat()
    guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
      if errno == ENOENT { return nil }
      throw .io(operation: "open", path: path(of: name), errno: errno)
    }
    return status
  }

  /// The regular file `name` opened for reading, or nil if it does not
  /// exist. A symbolic link is refused, never followed: made one since the
  /// store was located, it is looked at again by the next read. Never
  /// blocks: a FIFO opens at once, and is refused.
  func openForReading(_ name: String) throws(StoreError) -> Int32? {
    let descriptor = openat(self.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      switch errno {
      case ENOENT: return nil
      case ELOOP:
        throw .untrusted(path: path(of: name), reason: .notARegularFile(kind: "a symbolic link"))
      default: throw .io(operation: "read", path: path(of: name), errno: errno)
      }
    }
    return try checked(descriptor, name: name, isLock: false).descriptor
  }

  /// The lock file `name`, opened for `flock` (created, mode 0600, if
  /// missing), with its status. One that belongs to another user is
  /// refused at once rather than waited on.
  func openLock(_ name: String) throws(StoreError) -> (descriptor: Int32, status: stat) {
    let descriptor = openat(
      self.descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      if errno == ELOOP {
        throw .untrusted(path: path(of: name), reason: .notARegularFile(kind: "a symbolic link"))
      }
      throw .io(operation: "open the lock", path: path(of: name), errno: errno)
    }
    return try checked(descriptor, name: name, isLock: true)
  }

  /// `descriptor`, opened as `name` here, if the file passes
  /// ``UntrustedReason/ofFile(_:isLock:)``; else closed, and refused.
  private func checked(
    _ descriptor: Int32, name: String, isLock: Bool
  ) throws(StoreError) -> (descriptor: Int32, status: stat) {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let failure = errno
      close(descriptor)
      throw .io(operation: "open", path: path(of: name), errno: failure)
    }
    if let reason = UntrustedReason.ofFile(status, isLock: isLock) {
      close(descriptor)
      throw .untrusted(path: path(of: name), reason: reason)
    }
    return (descriptor, status)
  }

  /// `path`, absolute (a relative one is taken from the working directory).
  private static func absolute(_ path: String) throws(StoreError) -> String {
    if path.hasPrefix("/") { return path }
    guard let directory = getcwd(nil, 0) else {
      throw .io(operation: "open", path: path, errno: errno)
    }
    defer { free(directory) }
    return String(cString: directory) + "/" + path
  }

  /// Where the link at `path` (in the open `directory`, else from the working
  /// directory) points; nil if it is no link or cannot be read.
  static func readLink(_ path: String, in directory: Int32 = AT_FDCWD) -> String? {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBytes {
      readlinkat(directory, path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1)
    }
    return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
  }
}
