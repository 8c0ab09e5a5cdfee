import CSQLite

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe (opened with `SQLITE_OPEN_NOMUTEX`): its owner serialises every use.
/// `":memory:"` opens a private in-memory database.
final class SQLiteConnection {
  private var handle: OpaquePointer?
  /// Prepared statements by the address of their SQL text (a `StaticString` lives
  /// for the whole program): a lookup hashes one integer, not the text.
  private var statements: [UInt: SQLiteStatement] = [:]

  /// Memory statistics off, once per process, before the first connection.
  private static let configured: Void = {
    _ = tpns_sqlite3_disable_memory_statistics()
  }()

  /// Opens (creating if needed) the database at `path`.
  init(path: String) throws(SQLiteError) {
    Self.configured
    var connection: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(connection)
      throw SQLiteError(code: code, message: message)
    }
    sqlite3_extended_result_codes(connection, 1)
    handle = connection
  }

  deinit { close() }

  /// Finalises every statement and closes the connection (idempotent).
  func close() {
    statements.removeAll()
    if let handle {
      sqlite3_close_v2(handle)
      self.handle = nil
    }
  }

  /// Runs one or more statements that return no rows (schema, pragmas).
  func execute(_ sql: String) throws(SQLiteError) {
    guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "database is closed") }
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    if code != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      throw SQLiteError(code: code, message: text)
    }
  }

  /// The prepared statement for `sql`, compiled on first use and reused afterwards.
  func statement(_ sql: StaticString) throws(SQLiteError) -> SQLiteStatement {
    let key = UInt(bitPattern: sql.utf8Start)
    if let cached = statements[key] { return cached }
    guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "database is closed") }
    let statement = try SQLiteStatement(sql: sql, connection: handle)
    statements[key] = statement
    return statement
  }

  /// The rowid of the last row inserted (settable, to tell an insert from an update).
  var lastInsertedRowID: Int64 {
    get { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }
    set { handle.map { sqlite3_set_last_insert_rowid($0, newValue) } }
  }

  /// Number of rows changed by the last statement.
  var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

  /// Whether writes share one long transaction, committed every ``batchedWriteLimit``
  /// writes (see ``batchWrites()``).
  private(set) var batchesWrites = false
  /// Writes since the long transaction began.
  private var batchedWrites = 0
  /// Nesting of ``write(_:)`` (a ``transaction(_:)`` is one, and may be in another).
  private var writeDepth = 0

  /// Writes a long transaction holds before it is committed: it keeps a copy of each
  /// page it changed (at most the database's size), so it is committed now and then.
  static let batchedWriteLimit = 1000

  /// Makes the writes share one long transaction, for a database nobody else reads
  /// (`:memory:`, private to this connection, which sees its own changes): each
  /// commit copied the pages it changed into the rollback journal anew.
  /// A ``transaction(_:)`` is then a savepoint, rolled back alone when it throws, and
  /// a single statement is atomic by itself within the long transaction, as SQLite
  /// rolls back a failed statement's changes. Only an error after which SQLite rolls
  /// the whole transaction back (out of memory) loses the writes since the last commit.
  func batchWrites() {
    batchesWrites = true
  }

  /// Runs `body`, a write atomic by itself (one statement, or a ``transaction(_:)``):
  /// autocommitted, or in the long transaction when ``batchesWrites``.
  func write<T>(_ body: () throws -> T) throws -> T {
    guard batchesWrites, let handle else { return try body() }
    if writeDepth == 0 && sqlite3_get_autocommit(handle) != 0 {
      try statement("BEGIN").run()
      batchedWrites = 0
    }
    writeDepth += 1
    defer {
      writeDepth -= 1
      if writeDepth == 0 { countBatchedWrite() }
    }
    return try body()
  }

  /// Counts a write of the long transaction, committing it at the limit. A commit that
  /// fails leaves it open, committed at the next write.
  private func countBatchedWrite() {
    batchedWrites += 1
    guard batchedWrites >= Self.batchedWriteLimit, let handle, sqlite3_get_autocommit(handle) == 0
    else { return }
    do {
      try statement("COMMIT").run()
    } catch {
      return
    }
  }

  /// Runs `body` in one transaction: committed when it returns, rolled back when it
  /// throws (and the error rethrown), so that a rejected command changes nothing.
  /// With ``batchesWrites``, a savepoint of the long transaction.
  func transaction<T>(_ body: () throws -> T) throws -> T {
    if batchesWrites { return try write { try savepoint(body) } }
    try statement("BEGIN IMMEDIATE").run()
    let result: T
    do {
      result = try body()
      try statement("COMMIT").run()
    } catch {
      try? statement("ROLLBACK").run()
      throw error
    }
    return result
  }

  /// Runs `body` in a savepoint: released when it returns, rolled back when it throws
  /// (and the error rethrown).
  private func savepoint<T>(_ body: () throws -> T) throws -> T {
    try statement("SAVEPOINT command").run()
    let result: T
    do {
      result = try body()
      try statement("RELEASE command").run()
    } catch {
      try? statement("ROLLBACK TO command").run()
      try? statement("RELEASE command").run()
      throw error
    }
    return result
  }
}
