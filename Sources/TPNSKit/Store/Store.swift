import Glibc
import Locking
import Reactive

/// The property-list file that is the single source of truth: where it lives,
/// how it is read, and the locked, atomic, durable read-modify-write that is
/// the only way it changes.
///
///     let store = Store(path: try Store.defaultPath(environment: env))
///     try store.update { $0.uids.append("ABCDEFGHJKLMNPRSTUVW") }
public struct Store: Sendable {
  /// The store file.
  public let path: String
  /// How long a lock (the store's, or the send lock) is waited for.
  public let lockTimeout: Duration
  /// When the command's whole time budget (`--timeout`) runs out: no lock
  /// is waited for past it.
  public let deadline: ContinuousClock.Instant?
  /// The bytes last read or written and the state they hold: a command
  /// reads the store at each step, and the same bytes are not parsed again.
  /// The state is a function of the bytes alone, so one entry serves any store.
  private static let lastSeen = LockedState<(bytes: [UInt8], state: StoreContents)?>(nil)

  /// A store at `path` (which need not exist yet).
  public init(
    path: String, lockTimeout: Duration = .seconds(10), deadline: ContinuousClock.Instant? = nil
  ) {
    self.path = path
    self.lockTimeout = lockTimeout
    self.deadline = deadline
  }

  var lockWait: Duration {
    guard let deadline else { return lockTimeout }
    return max(min(lockTimeout, deadline - .now), .zero)
  }

  /// The file locked during a read-modify-write: next to the store (for a
  /// symbolic link, next to its target, so that both names share one lock).
  public var lockPath: String {
    (((try? locate(creating: false)) ?? nil)?.path ?? path) + ".lock"
  }

  /// The store's real file: its directory, checked and open (see
  /// ``StoreDirectory``), and its name there. Follows a link at `path` that
  /// this user owns (8 at most), so that writes land in its target; one
  /// owned by anyone else is refused. nil if the directory does not exist,
  /// unless `creating`.
  func locate(creating: Bool) throws(StoreError) -> Location? {
    var path = self.path
    for _ in 0...8 {
      let directoryPath = AtomicFile.parentDirectory(of: path)
      guard let directory = try StoreDirectory.open(directoryPath, creating: creating) else {
        return nil
      }
      let name = AtomicFile.fileName(of: path)
      guard let status = try directory.status(of: name), status.st_mode & S_IFMT == S_IFLNK else {
        return Location(directory: directory, name: name)
      }
      if let reason = UntrustedReason.ofLink(status, isStore: true) {
        throw .untrusted(path: path, reason: reason)
      }
      guard let destination = StoreDirectory.readLink(name, in: directory.descriptor) else {
        throw .io(operation: "read the link", path: directory.path(of: name), errno: errno)
      }
      path = destination.hasPrefix("/") ? destination : directoryPath + "/" + destination
    }
    throw .io(operation: "follow", path: self.path, errno: ELOOP)
  }

  struct Location {
    let directory: StoreDirectory
    let name: String
    /// Its path, for messages and for the files beside it.
    var path: String { directory.path(of: name) }
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

  /// The warning for a store file of this user's that the group or others
  /// may read (it holds the token; tpns writes it 0600), or nil.
  public func exposureWarning() -> String? {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      status.st_uid == geteuid(), status.st_mode & 0o044 != 0
    else { return nil }
    return "the store \(path) is readable by group or others (mode "
      + "\(UntrustedReason.octal(status.st_mode & 0o7777))), and tpns keeps the push token "
      + "there; run 'chmod 600 \(path)'"
  }

  /// The stored state; an empty one if the file does not exist yet.
  ///
  /// Needs no lock: writes replace the file by rename, so a reader sees a
  /// whole old or a whole new file.
  public func load() throws(StoreError) -> StoreContents {
    guard let location = try locate(creating: false), let data = try read(location) else {
      return StoreContents()
    }
    return try decode(data)
  }

  /// Runs `change` on the stored state under the store's lock and writes the
  /// result if it differs; returns what `change` returns. If `change` throws,
  /// or the write fails, the file is left as it was.
  @discardableResult
  public func update<Result>(
    _ change: (inout StoreContents) throws -> Result
  ) throws -> Result {
    let location = try located()
    let lock = try Self.lock(".lock", beside: location, timeout: lockWait)
    defer { lock.release() }
    let data = try read(location)
    let before = try data.map(decode) ?? StoreContents()
    var after = before
    let result = try change(&after)
    if after != before {
      // A store its owner may not write was made read-only on purpose: it
      // is refused, not replaced by a new file with tpns's mode.
      if let status = try location.directory.status(of: location.name),
        status.st_mode & S_IFMT == S_IFREG, status.st_mode & S_IWUSR == 0
      {
        throw StoreError.readOnly(path: location.path, mode: status.st_mode & 0o7777)
      }
      let bytes = try encode(after, sizeHint: data?.count ?? 0)
      // A writer killed mid-write leaves its temp file; the lock says none is live.
      AtomicFile.removeStaleTemporaries(of: location.name, in: location.directory)
      // What a server acknowledged may be lost to a crash (it is then sent
      // again): its rename is not waited for on disk. What the user asked
      // for always is (docs/ARCHITECTURE.md, "The store file").
      try AtomicFile.write(
        bytes, named: location.name, in: location.directory,
        syncingDirectory: !after.desiresTheSame(as: before))
      Self.lastSeen.withLock { $0 = (bytes, after) }
    }
    return result
  }

  /// Holds the store's send lock (`state.plist.sync.lock`) until the result is
  /// disposed: one reconciliation at a time per store across processes.
  /// Waits as long as a store lock (``lockWait``).
  public func lockForSending() throws(StoreError) -> any Disposable {
    let lock = try Self.lock(".sync.lock", beside: located(), timeout: lockWait)
    return Disposables.create { lock.release() }
  }

  /// Where the store's file is, its directories created if missing.
  func located() throws(StoreError) -> Location {
    guard let location = try locate(creating: true) else {
      throw .io(operation: "create the directory", path: path, errno: ENOENT)
    }
    return location
  }

  /// The bytes `state` is stored as, an XML property list; a string XML
  /// cannot hold is refused, naming this store. `sizeHint`: the size of the
  /// file it replaces, which a change alters little.
  func encode(_ state: StoreContents, sizeHint: Int) throws(StoreError) -> [UInt8] {
    do {
      return try PropertyListXML.serialize(.dictionary(state.propertyList), sizeHint: sizeHint)
    } catch {
      throw .unwritable(path: path, text: error.text)
    }
  }

  /// The state `data` holds, parsed unless the bytes are those last seen.
  private func decode(_ data: [UInt8]) throws(StoreError) -> StoreContents {
    if let seen = Self.lastSeen.withLock({ $0 }), seen.bytes == data {
      return seen.state
    }
    if data.isEmpty { throw .corrupt(path: path, reason: .empty) }
    let value: PropertyListValue
    do {
      value = try PropertyList.read(data)
    } catch  where error.isTooDeep {
      throw .corrupt(
        path: path, reason: .nestedTooDeep(limit: PropertyList.maximumDepth, line: error.line))
    } catch {
      throw .corrupt(path: path, reason: .notAPropertyList(reason: error.description))
    }
    guard case .dictionary(let dictionary) = value else {
      throw .corrupt(path: path, reason: .notADictionary)
    }
    let state: StoreContents
    do {
      state = try StoreContents(propertyList: dictionary)
      // What the XML reader refuses itself; a binary store is written back as XML.
      if PropertyList.isBinary(data) { try StoreContents.checkWritable(value) }
    } catch {
      throw .corrupt(path: path, reason: error)
    }
    Self.lastSeen.withLock { $0 = (data, state) }
    return state
  }

  /// The bytes of the file at `location`; nil if it does not exist.
  private func read(_ location: Location) throws(StoreError) -> [UInt8]? {
    guard let descriptor = try location.directory.openForReading(location.name) else {
      return nil
    }
    defer { close(descriptor) }
    let bytes: [UInt8]
    do {
      bytes = try FileDescriptor.readAll(descriptor, limit: PropertyList.maximumSize + 1)
    } catch {
      throw .io(operation: "read", path: path, errno: error.code)
    }
    guard bytes.count <= PropertyList.maximumSize else {
      throw .corrupt(path: path, reason: .tooLarge(limit: PropertyList.maximumSize))
    }
    return bytes
  }
}
