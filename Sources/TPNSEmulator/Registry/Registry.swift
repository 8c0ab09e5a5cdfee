import Locking
import TPNSProtocol

/// The emulator's registry: phones, mappings, devices and notifications, in SQLite.
///
/// Thread-safe: one lock serialises every use of the single connection, and each
/// ``write(inTransaction:_:)`` is one transaction (or one statement, atomic by
/// itself), so a command that throws changes nothing. Each write is made when it
/// is asked for: once it returns, a file registry holds it.
final class Registry: @unchecked Sendable {
  // @unchecked: `store` and `hasWarned` are only touched with `lock` held.
  private let lock = Lock()
  private let store: RegistryStore
  private let warning: (@Sendable (String) -> Void)?
  private var hasWarned = false

  /// Opens the registry in the file at `path` (WAL), or in memory when nil. `warning`,
  /// when given, receives one line the first time the file or its log is found
  /// deleted or replaced.
  init(path: String?, warning: (@Sendable (String) -> Void)? = nil) throws {
    store = try RegistryStore(path: path)
    self.warning = warning
  }

  /// The UIDs the service maps (thread-safe by itself: no lock of this one).
  var whitelist: Whitelist { store.whitelist }

  /// Runs `body` with the lock held, in one transaction (or outside any when
  /// `inTransaction` is false: a write atomic by itself), once the database file is
  /// checked to be still at its path; throws ``DatabaseFileError`` (changing nothing)
  /// when it is not.
  func write<T>(inTransaction: Bool = true, _ body: (RegistryStore) throws -> T) throws -> T {
    do {
      return try lock.withLock { () throws -> T in
        if let error = store.file?.error { throw error }
        return try inTransaction ? store.database.transaction { try body(store) } : body(store)
      }
    } catch let error as DatabaseFileError {
      warnOnce(error)
      throw error
    }
  }

  /// Replaces the registry, the notifications and the whitelist with `snapshot`'s (the
  /// whitelist off when it has none), in one transaction: a failure changes nothing.
  func load(_ snapshot: Snapshot) throws {
    try write { try $0.load(snapshot) }
    whitelist.replace(with: snapshot.whitelist?.compactMap { try? DeviceUID($0) })
  }

  /// Runs `body` with the lock held, outside any transaction: reads only, which still
  /// answer from the open database when its file is gone.
  func read<T>(_ body: (RegistryStore) throws -> T) throws -> T {
    try lock.withLock { () throws -> T in try body(store) }
  }

  /// Why the database file or its log is no longer usable (deleted or replaced), or
  /// nil while both are (and always in memory). Two `stat(2)`s.
  var fileError: DatabaseFileError? {
    let error = lock.withLock { store.file?.error }
    if let error { warnOnce(error) }
    return error
  }

  /// Idempotent; later uses fail with an SQLite error.
  func close() {
    lock.withLock { store.database.close() }
  }

  private func warnOnce(_ error: DatabaseFileError) {
    let isFirst = lock.withLock { () -> Bool in
      defer { hasWarned = true }
      return !hasWarned
    }
    if isFirst, let warning { warning(error.description) }
  }
}
