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

  /// Opens, creating if needed, the database at `path`.
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

  /// Compiled on first use, then reused.
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

  /// The rows changed by the last statement.
  var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

  /// Runs `body` in one transaction: committed when it returns, rolled back when it
  /// throws (and the error rethrown), so that a rejected command changes nothing.
  func transaction<T>(_ body: () throws -> T) throws -> T {
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
}
