import Locking

/// The emulator's registry: phones, mappings, devices and notifications, in SQLite.
///
/// Thread-safe: one lock serialises every use of the single connection, and each
/// ``write(_:)`` is one transaction, so a command that throws changes nothing.
final class Registry: @unchecked Sendable {
  // @unchecked: `store` is only touched with `lock` held.
  private let lock = Lock()
  private let store: RegistryStore

  /// Opens the registry in the file at `path` (WAL), or in memory when nil.
  init(path: String?) throws {
    store = try RegistryStore(path: path)
  }

  /// Runs `body` in one transaction with the lock held.
  func write<T>(_ body: (RegistryStore) throws -> T) throws -> T {
    try lock.withLock { () throws -> T in
      try store.transaction { try body(store) }
    }
  }

  /// Runs `body` with the lock held, outside any transaction (reads, and writes that
  /// are atomic by themselves).
  func read<T>(_ body: (RegistryStore) throws -> T) throws -> T {
    try lock.withLock { () throws -> T in try body(store) }
  }

  /// Closes the database; later uses fail with an SQLite error (idempotent).
  func close() {
    lock.withLock { store.close() }
  }
}
