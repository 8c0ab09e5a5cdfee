import FoundationEssentials
import Locking
import Reactive

#if canImport(Glibc)
  import Glibc
#endif

/// The property-list file that is the single source of truth: where it lives,
/// how it is read, and the locked, atomic, durable read-modify-write that is
/// the only way it changes.
///
///     let store = StateStore(path: try StateStore.defaultPath(environment: env))
///     try store.update { $0.uids.append("ABCDEFGHJKLMNPRSTUVW") }
public struct StateStore: Sendable {
  /// The store file.
  public let path: String
  /// How long a lock (the store's, or the send lock) is waited for.
  public let lockTimeout: Duration
  /// When the command's whole time budget (`--timeout`) runs out: no lock
  /// is waited for past it.
  public let deadline: ContinuousClock.Instant?

  /// A store at `path` (which need not exist yet).
  public init(
    path: String, lockTimeout: Duration = .seconds(10), deadline: ContinuousClock.Instant? = nil
  ) {
    self.path = path
    self.lockTimeout = lockTimeout
    self.deadline = deadline
  }

  /// How long a lock may be waited for now: `lockTimeout`, or less if the
  /// deadline is nearer.
  var lockWait: Duration {
    guard let deadline else { return lockTimeout }
    return max(min(lockTimeout, deadline - .now), .zero)
  }

  /// The file locked during a read-modify-write: next to the store (for a
  /// symbolic link, next to its target, so that both names share one lock).
  public var lockPath: String {
    ((try? target()) ?? path) + ".lock"
  }

  /// Where writes go: `path`, or for a symbolic link this user owns, its
  /// target, so that the link stays a link. A link owned by another user is
  /// refused: it could point the write anywhere.
  func target(depth: Int = 0) throws(StoreError) -> String {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return path }
    guard status.st_uid == geteuid() else { throw .untrustedSymlink(path: path) }
    guard depth < 8 else { throw .io(operation: "follow", path: path, errno: ELOOP) }
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBytes {
      readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1)
    }
    guard count > 0 else { throw .io(operation: "read the link", path: path, errno: errno) }
    let destination = String(decoding: buffer[..<count], as: UTF8.self)
    let absolute =
      destination.hasPrefix("/")
      ? destination : AtomicFile.parentDirectory(of: path) + "/" + destination
    return try StateStore(path: absolute).target(depth: depth + 1)
  }

  /// Where the store lives: `TPNS_STORE`, else `$XDG_CONFIG_HOME/tpns/state.plist`,
  /// else `~/.config/tpns/state.plist`. (`--store` overrides all of them.)
  public static func defaultPath(environment: [String: String]) -> String? {
    if let store = environment["TPNS_STORE"], !store.isEmpty { return store }
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return config + "/tpns/state.plist"
    }
    if let home = environment["HOME"], !home.isEmpty { return home + "/.config/tpns/state.plist" }
    return nil
  }

  /// Whether the store file exists; for a symbolic link, whether the file
  /// it points to does (a dangling link is no store).
  public func exists() throws(StoreError) -> Bool {
    var status = stat()
    if stat(path, &status) == 0 { return true }
    if errno == ENOENT { return false }
    throw .io(operation: "read", path: path, errno: errno)
  }

  /// The stored state; an empty one if the file does not exist yet.
  ///
  /// Needs no lock: writes replace the file by rename, so a reader sees a
  /// whole old or a whole new file.
  public func load() throws(StoreError) -> StoreState {
    guard let data = try read() else { return StoreState() }
    return try decode(data)
  }

  /// Runs `change` on the stored state under the store's lock and writes the
  /// result if it differs; returns what `change` returns. If `change` throws,
  /// or the write fails, the file is left as it was.
  @discardableResult
  public func update<Result>(
    _ change: (inout StoreState) throws -> Result
  ) throws -> Result {
    let target = try target()
    try createDirectory(for: target)
    let lock = try Lock(path: target + ".lock", timeout: lockWait)
    defer { lock.release() }
    let before = try load()
    var after = before
    let result = try change(&after)
    if after != before {
      if let text = after.unwritableText {
        throw StoreError.unwritable(path: path, text: text)
      }
      // A writer killed mid-write leaves its temp file; the lock says none is live.
      AtomicFile.removeStaleTemporaries(of: target)
      try AtomicFile.write(Self.encode(after), to: target)
    }
    return result
  }

  /// Holds the store's send lock (`state.plist.sync.lock`) until the result is
  /// disposed: one reconciliation at a time per store across processes, so
  /// that two processes can never leave a server holding an older
  /// registration or list than the one recorded as acknowledged. Waits as
  /// long as a store lock (``lockWait``).
  public func lockForSending() throws(StoreError) -> any Disposable {
    let lock = try Lock(path: companionPath(".sync.lock"), timeout: lockWait)
    return Disposables.create { lock.release() }
  }

  /// The path of a file that belongs beside the store (a lock: `suffix`
  /// `.watch.lock` gives `state.plist.watch.lock`), once the store's
  /// directories exist. For a symbolic link it is beside the target, as the
  /// store's own locks are, so that every name of one store shares it.
  public func companionPath(_ suffix: String) throws(StoreError) -> String {
    let target = try target()
    try createDirectory(for: target)
    return target + suffix
  }

  /// The bytes `state` is stored as: an XML property list.
  public static func encode(_ state: StoreState) -> Data {
    Data(PropertyListXML.serialize(.dictionary(state.propertyList)))
  }

  private func decode(_ data: Data) throws(StoreError) -> StoreState {
    if data.isEmpty { throw .corrupt(path: path, reason: .empty) }
    if data.starts(with: "bplist".utf8) { throw .corrupt(path: path, reason: .binaryPropertyList) }
    let value: PropertyListValue
    do {
      value = try PropertyListXML.parse(Array(data))
    } catch {
      throw .corrupt(path: path, reason: .notAPropertyList(reason: error.description))
    }
    guard case .dictionary(let list) = value else {
      throw .corrupt(path: path, reason: .notADictionary)
    }
    do {
      return try StoreState(propertyList: list)
    } catch {
      throw .corrupt(path: path, reason: error)
    }
  }

  /// The file's bytes, or `nil` if it does not exist. A symbolic link is
  /// followed only if this user owns it.
  private func read() throws(StoreError) -> Data? {
    var status = stat()
    if lstat(path, &status) != 0 {
      if errno == ENOENT { return nil }
      throw .io(operation: "read", path: path, errno: errno)
    }
    if status.st_mode & S_IFMT == S_IFLNK, status.st_uid != geteuid() {
      throw .untrustedSymlink(path: path)
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw .io(operation: "read", path: path, errno: errno)
    }
    defer { close(descriptor) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .io(operation: "read", path: path, errno: errno)
      }
      if count == 0 { return data }
      data.append(contentsOf: buffer[..<count])
    }
  }

  /// Creates the store's directory (and its parents) with mode 0700 if missing.
  private func createDirectory(for file: String) throws(StoreError) {
    var missing: [String] = []
    var directory = AtomicFile.parentDirectory(of: file)
    var status = stat()
    while stat(directory, &status) != 0 {
      guard errno == ENOENT else { throw .io(operation: "open", path: directory, errno: errno) }
      missing.append(directory)
      let parent = AtomicFile.parentDirectory(of: directory)
      if parent == directory { break }
      directory = parent
    }
    for directory in missing.reversed() {
      if mkdir(directory, 0o700) != 0, errno != EEXIST {
        throw .io(operation: "create the directory", path: directory, errno: errno)
      }
    }
  }

}
