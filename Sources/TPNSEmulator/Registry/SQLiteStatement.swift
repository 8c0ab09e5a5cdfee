import CSQLite

/// A prepared SQLite statement, reused across executions.
///
/// Not thread-safe: owned by a ``SQLiteConnection``, used under its owner's lock.
final class SQLiteStatement {
  private let handle: OpaquePointer
  private let connection: OpaquePointer
  private let parameterCount: Int
  /// The bytes of the texts bound, which SQLite reads in place (`SQLITE_STATIC`)
  /// until they are bound again, rather than copying each (`SQLITE_TRANSIENT`). Grown
  /// as needed, never shrunk.
  private var boundText = UnsafeMutableRawBufferPointer(start: nil, count: 0)

  init(sql: StaticString, connection: OpaquePointer) throws(SQLiteError) {
    var statement: OpaquePointer?
    let code = sql.utf8Start.withMemoryRebound(to: CChar.self, capacity: sql.utf8CodeUnitCount) {
      sqlite3_prepare_v3(
        connection, $0, Int32(sql.utf8CodeUnitCount), UInt32(SQLITE_PREPARE_PERSISTENT),
        &statement, nil)
    }
    guard code == SQLITE_OK, let statement else {
      throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(connection)))
    }
    self.handle = statement
    self.connection = connection
    parameterCount = Int(sqlite3_bind_parameter_count(statement))
  }

  deinit {
    sqlite3_finalize(handle)
    boundText.deallocate()
  }

  enum Value {
    case text(String)
    case integer(Int64)
    case null
  }

  /// Binds `values` to parameters 1…n after resetting the statement.
  func bind(_ values: [Value]) throws(SQLiteError) {
    sqlite3_reset(handle)
    // Bindings persist across resets: cleared only when some are not bound again.
    if values.count < parameterCount { sqlite3_clear_bindings(handle) }
    var textBytes = 0
    for case .text(let text) in values { textBytes += text.utf8.count }
    if textBytes > boundText.count {
      sqlite3_clear_bindings(handle)  // nothing may point into the buffer it replaces
      boundText.deallocate()
      boundText = .allocate(byteCount: max(textBytes, 2 * boundText.count, 256), alignment: 1)
    }
    var textOffset = 0
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch value {
      case .text(let text):
        var text = text
        let count = text.utf8.count
        if let buffer = boundText.baseAddress, count > 0 {
          let start = buffer + textOffset
          text.withUTF8 { start.copyMemory(from: $0.baseAddress!, byteCount: count) }
          textOffset += count
          // A nil destructor is SQLITE_STATIC: the bytes stay where they are.
          code = sqlite3_bind_text(
            handle, index, start.assumingMemoryBound(to: CChar.self), Int32(count), nil)
        } else {
          code = tpns_sqlite3_bind_text(handle, index, "", 0)
        }
      case .integer(let number):
        code = sqlite3_bind_int64(handle, index, number)
      case .null:
        code = sqlite3_bind_null(handle, index)
      }
      guard code == SQLITE_OK else { throw error(code) }
    }
  }

  /// False when done.
  func step() throws(SQLiteError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw error(code)
    }
  }

  func run(_ values: [Value] = []) throws(SQLiteError) {
    try bind(values)
    while try step() {}
    sqlite3_reset(handle)
  }

  /// Binds `values` and collects every row through `row`.
  func rows<T>(_ values: [Value] = [], _ row: (SQLiteStatement) -> T) throws(SQLiteError) -> [T] {
    try bind(values)
    var result: [T] = []
    while try step() { result.append(row(self)) }
    sqlite3_reset(handle)
    return result
  }

  /// The text in column `index` of the current row; nil for NULL.
  func text(_ index: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, index) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// The integer in column `index` of the current row; nil for NULL.
  func integer(_ index: Int32) -> Int64? {
    sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, index)
  }

  private func error(_ code: Int32) -> SQLiteError {
    let failure = SQLiteError(code: code, message: String(cString: sqlite3_errmsg(connection)))
    sqlite3_reset(handle)
    return failure
  }
}
