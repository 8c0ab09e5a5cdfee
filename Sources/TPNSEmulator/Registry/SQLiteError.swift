/// An error reported by SQLite: its result code and message.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The (extended) result code, e.g. 19 for a constraint violation.
  public let code: Int32
  /// `sqlite3_errmsg` at the time of the failure.
  public let message: String

  public var description: String { "SQLite error \(code): \(message)" }

  /// Whether a UNIQUE constraint refused the statement (`SQLITE_CONSTRAINT_UNIQUE`).
  var isUniqueConstraint: Bool { code == 2067 }

  /// Whether the file opened is not a database (`SQLITE_NOTADB`).
  var isNotADatabase: Bool { code & 0xFF == 26 }

  /// Whether another connection holds the database locked (`SQLITE_BUSY`).
  var isBusy: Bool { code & 0xFF == 5 }
}
