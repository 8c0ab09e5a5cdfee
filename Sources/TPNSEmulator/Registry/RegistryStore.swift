import CSQLite
import Glibc

/// The registry's tables and queries over one SQLite connection.
///
/// Not thread-safe: reached only through ``Registry``, which holds its lock and wraps
/// each command in a transaction (a registration is one statement, autocommitted).
final class RegistryStore {
  let database: SQLiteConnection
  /// Nil in memory. Its `error` says when the file opened, or its log, is no
  /// longer at its path (deleted or replaced): what is written then would be lost.
  let file: DatabaseFile?
  /// Kept in memory, beside the database.
  let whitelist = Whitelist()

  private static let schema = """
    CREATE TABLE IF NOT EXISTS clients (
      appid TEXT NOT NULL,
      udid TEXT NOT NULL,
      os TEXT NOT NULL,
      token TEXT,
      token_key TEXT UNIQUE,
      lang TEXT,
      dev INTEGER,
      bgfetch INTEGER,
      registered_at INTEGER NOT NULL,
      last_seen INTEGER NOT NULL,
      extra TEXT,
      PRIMARY KEY (appid, udid)
    );
    CREATE TABLE IF NOT EXISTS mappings (
      appid TEXT NOT NULL,
      udid TEXT NOT NULL,
      uid TEXT NOT NULL,
      position INTEGER NOT NULL,
      push_interval INTEGER,
      format TEXT,
      created_at INTEGER NOT NULL,
      extra TEXT,
      PRIMARY KEY (appid, udid, uid),
      FOREIGN KEY (appid, udid) REFERENCES clients (appid, udid) ON DELETE CASCADE
    );
    CREATE INDEX IF NOT EXISTS mappings_by_uid ON mappings (uid);
    -- A phone's list in its order, read at every mapsync.
    CREATE INDEX IF NOT EXISTS mappings_in_order ON mappings (appid, udid, position);
    CREATE TABLE IF NOT EXISTS devices (
      uid TEXT PRIMARY KEY,
      first_seen INTEGER NOT NULL,
      last_seen INTEGER NOT NULL,
      announcements INTEGER NOT NULL,
      extra TEXT
    );
    CREATE TABLE IF NOT EXISTS notifications (
      id INTEGER PRIMARY KEY,
      appid TEXT NOT NULL,
      udid TEXT NOT NULL,
      os TEXT NOT NULL,
      token TEXT NOT NULL,
      uid TEXT NOT NULL,
      event_type INTEGER NOT NULL,
      msg TEXT,
      event_time INTEGER,
      created_at INTEGER NOT NULL,
      extra TEXT
    );
    CREATE INDEX IF NOT EXISTS notifications_by_udid ON notifications (udid);
    """

  /// The schema's version (`PRAGMA user_version`): 1 had no `extra` columns; 2 has
  /// them (what clients sent beyond the protocol's parameters).
  static let schemaVersion = 2

  /// Opens the registry in `path`, or in memory when `path` is nil.
  ///
  /// A file database uses WAL with `synchronous=NORMAL`: each command's commit is
  /// durable across a crash of the emulator, and cheap. An in-memory one keeps its
  /// rollback journal in memory too (SQLite's default there), which a command that
  /// throws needs to change nothing.
  init(path: String?) throws {
    // Created empty for its owner alone (0600) before SQLite opens it, unless something
    // (a file, a directory, a link) is there already; removed again if the registry
    // cannot be opened after all. SQLite would create it 0644 less the umask, readable
    // by every local user with every token in it; it opens an empty file as a new
    // database, and creates the `-wal` and `-shm` beside it with the database's mode.
    var created = false
    if let path {
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      created = descriptor >= 0
      if created { close(descriptor) }
    }
    do {
      // Closed by its deinit if the set-up below fails.
      let database = try SQLiteConnection(path: path ?? ":memory:")
      if path != nil { try database.execute("PRAGMA busy_timeout = 5000;") }
      // Two servers setting up one new file at the same moment: where their locks
      // would deadlock (one switching to WAL), SQLite answers "database is locked"
      // at once, without its busy timeout. The set-up can be taken again: retry, for 5 s.
      let deadline = ContinuousClock.now + .seconds(5)
      while true {
        do {
          try Self.setUp(database, isFile: path != nil)
          break
        } catch let error as SQLiteError where error.isBusy && ContinuousClock.now < deadline {
          usleep(10_000)
        }
      }
      file = try path.map { path in
        guard let file = DatabaseFile(path: path) else {
          throw SQLiteError(code: SQLITE_CANTOPEN, message: "the file vanished once opened")
        }
        return file
      }
      self.database = database
    } catch {
      if created, let path { unlink(path) }
      throw error
    }
  }

  /// Checks the schema, then brings `database` to the registry's: WAL for a file,
  /// then the tables and the migrations in one transaction, so that a server
  /// opening the same new file at the same moment finds all of them or none.
  private static func setUp(_ database: SQLiteConnection, isFile: Bool) throws {
    // Another program's database is refused before anything is written to it.
    try checkSchema(of: database)
    if isFile {
      try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
    }
    try database.execute("PRAGMA foreign_keys = ON;")
    try database.transaction {
      try database.execute(schema)
      try migrate(database)
    }
  }

  /// The columns each table must have (a registry any version created has them all).
  private static let requiredColumns = [
    ("clients", "appid, udid, os, token, token_key, lang, dev, bgfetch, registered_at, last_seen"),
    ("mappings", "appid, udid, uid, position, push_interval, format, created_at"),
    ("devices", "uid, first_seen, last_seen, announcements"),
    ("notifications", "id, appid, udid, os, token, uid, event_type, msg, event_time, created_at"),
  ]

  /// Throws ``RegistrySchemaError`` if `database` holds tables but not the
  /// registry's (an empty database is a new registry).
  private static func checkSchema(of database: SQLiteConnection) throws {
    let tables = try database.statement("SELECT name FROM sqlite_master WHERE type = 'table'")
      .rows([], { $0.text(0) ?? "" })
    guard !tables.isEmpty else { return }
    for (table, columns) in requiredColumns {
      guard tables.contains(table) else {
        throw RegistrySchemaError(reason: "it has no '\(table)' table")
      }
      do {
        try database.execute("SELECT \(columns) FROM \(table) LIMIT 0")
      } catch {
        throw RegistrySchemaError(reason: "its '\(table)' table is not the registry's (\(error))")
      }
    }
  }

  /// Brings a registry an earlier version created up to ``schemaVersion``, adding
  /// only what it lacks (its rows stay as they are), then records the version.
  private static func migrate(_ database: SQLiteConnection) throws {
    let hasExtra = try database.statement(
      "SELECT COUNT(*) FROM pragma_table_info(?1) WHERE name = 'extra'")
    for table in ["clients", "mappings", "devices", "notifications"] {
      let count = try hasExtra.rows([.text(table)]) { $0.integer(0) ?? 0 }.first ?? 0
      if count == 0 {
        try database.execute("ALTER TABLE \(table) ADD COLUMN extra TEXT;")
      }
    }
    try database.execute("PRAGMA user_version = \(schemaVersion);")
  }

  // MARK: Clients

  private static func client(_ row: SQLiteStatement) -> ClientRecord {
    ClientRecord(
      os: row.text(0) ?? "", appid: row.text(1) ?? "", udid: row.text(2) ?? "",
      token: row.text(3), lang: row.text(4), dev: row.integer(5), bgfetch: row.integer(6),
      extra: row.text(9), registeredAt: row.integer(7) ?? 0, lastSeen: row.integer(8) ?? 0)
  }

  /// The phone registered as (appid, udid), if any.
  func client(appid: String, udid: String) throws -> ClientRecord? {
    try database.statement(
      "SELECT os, appid, udid, token, lang, dev, bgfetch, registered_at, last_seen, extra FROM clients WHERE appid = ?1 AND udid = ?2"
    ).rows([.text(appid), .text(udid)], Self.client).first
  }

  /// Every phone, oldest registration first.
  func clients() throws -> [ClientRecord] {
    try database.statement(
      "SELECT os, appid, udid, token, lang, dev, bgfetch, registered_at, last_seen, extra FROM clients ORDER BY registered_at, rowid"
    ).rows([], Self.client)
  }

  /// Inserts or updates the phone keyed by (appid, udid); true when it is new.
  ///
  /// `tokenKey` is the token as compared for uniqueness (iOS tokens lower-cased). A token
  /// held by another udid moves to this one: the other phone keeps its registration
  /// and mappings but has no token left, so nothing is pushed to it. Atomic on its own:
  /// call it outside a transaction (only when the insert hits the token's UNIQUE
  /// constraint, which changes nothing, are the move and the insert run in one).
  func upsert(_ record: ClientRecord, tokenKey: String) throws -> Bool {
    let values: [SQLiteStatement.Value] = [
      .text(record.os), .text(record.appid), .text(record.udid), optional(record.token),
      optional(record.lang), optional(record.dev), optional(record.bgfetch),
      .integer(record.lastSeen), .text(tokenKey), optional(record.extra),
    ]
    // A phone refreshing its registration with the same token (the usual case) is
    // one update that leaves the token index alone.
    try database.statement(
      """
      UPDATE clients
      SET os = ?1, token = ?4, lang = ?5, dev = ?6, bgfetch = ?7, last_seen = ?8, extra = ?10
      WHERE appid = ?2 AND udid = ?3 AND token_key = ?9
      """
    ).run(values)
    if database.changes > 0 { return false }

    let insert = try database.statement(
      """
      INSERT INTO clients
        (os, appid, udid, token, lang, dev, bgfetch, registered_at, last_seen, token_key, extra)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?10)
      ON CONFLICT (appid, udid) DO UPDATE SET
        os = excluded.os, token = excluded.token, token_key = excluded.token_key,
        lang = excluded.lang, dev = excluded.dev, bgfetch = excluded.bgfetch,
        last_seen = excluded.last_seen, extra = excluded.extra
      """)
    do {
      return try upsert(with: insert, values)
    } catch {
      guard error.isUniqueConstraint else { throw error }
    }
    return try database.transaction {
      try database.statement(
        """
        UPDATE clients SET token = NULL, token_key = NULL
        WHERE token_key = ?1 AND NOT (appid = ?2 AND udid = ?3)
        """
      ).run([.text(tokenKey), .text(record.appid), .text(record.udid)])
      return try upsert(with: insert, values)
    }
  }

  /// Runs the upsert; true when it inserted. An upsert that updates leaves the last
  /// inserted rowid alone, so it is cleared first (rowids start at 1); cheaper than
  /// `RETURNING`, which buffers its rows in a temporary table.
  private func upsert(with insert: SQLiteStatement, _ values: [SQLiteStatement.Value])
    throws(SQLiteError)
    -> Bool
  {
    database.lastInsertedRowID = 0
    try insert.run(values)
    return database.lastInsertedRowID != 0
  }

  /// Records that the phone sent a command at `now`.
  func touch(appid: String, udid: String, now: Int64) throws {
    try database.statement("UPDATE clients SET last_seen = ?3 WHERE appid = ?1 AND udid = ?2")
      .run([.text(appid), .text(udid), .integer(now)])
  }

  // MARK: Devices and notifications

  /// Records a `cmd=device` announcement, with the `extra` of the latest one.
  func announce(uid: String, extra: String?, now: Int64) throws {
    try database.statement(
      """
      INSERT INTO devices (uid, first_seen, last_seen, announcements, extra)
      VALUES (?1, ?2, ?2, 1, ?3)
      ON CONFLICT (uid) DO UPDATE SET
        last_seen = excluded.last_seen, announcements = announcements + 1,
        extra = excluded.extra
      """
    ).run([.text(uid), .integer(now), optional(extra)])
  }

  /// Every announced device, in order of first announcement.
  func devices() throws -> [DeviceRecord] {
    try database.statement(
      """
      SELECT uid, first_seen, last_seen, announcements, extra FROM devices
      ORDER BY first_seen, rowid
      """
    ).rows([]) { row in
      DeviceRecord(
        uid: row.text(0) ?? "", firstSeen: row.integer(1) ?? 0, lastSeen: row.integer(2) ?? 0,
        announcements: row.integer(3) ?? 0, extra: row.text(4))
    }
  }

  /// Records one notification of a `cmd=event` for every phone with a token mapped to
  /// `uid`; the number recorded.
  func fanOut(
    uid: String, eventType: Int64, msg: String?, eventTime: Int64?, extra: String?, now: Int64
  ) throws -> Int {
    try database.statement(
      """
      INSERT INTO notifications
        (appid, udid, os, token, uid, event_type, msg, event_time, created_at, extra)
      SELECT c.appid, c.udid, c.os, c.token, m.uid, ?2, ?3, ?4, ?5, ?6
      FROM mappings m JOIN clients c ON c.appid = m.appid AND c.udid = m.udid
      WHERE m.uid = ?1 AND c.token IS NOT NULL
      ORDER BY c.registered_at, c.rowid
      """
    ).run([
      .text(uid), .integer(eventType), optional(msg), optional(eventTime), .integer(now),
      optional(extra),
    ])
    return database.changes
  }

  /// Recorded notifications, oldest first: those for `udid` and for `appid` when
  /// given (either alone filters too), every one when both are nil.
  func notifications(udid: String?, appid: String?) throws -> [NotificationRecord] {
    try database.statement(
      """
      SELECT id, appid, udid, os, token, uid, event_type, msg, event_time, created_at, extra
      FROM notifications
      WHERE (?1 IS NULL OR udid = ?1) AND (?2 IS NULL OR appid = ?2)
      ORDER BY id
      """
    ).rows([optional(udid), optional(appid)]) { row in
      NotificationRecord(
        id: row.integer(0) ?? 0, appid: row.text(1) ?? "", udid: row.text(2) ?? "",
        os: row.text(3) ?? "", token: row.text(4) ?? "", uid: row.text(5) ?? "",
        eventType: row.integer(6) ?? 0, msg: row.text(7), eventTime: row.integer(8),
        extra: row.text(10), createdAt: row.integer(9) ?? 0)
    }
  }

  func reset() throws {
    try database.execute(
      "DELETE FROM notifications; DELETE FROM mappings; DELETE FROM devices; DELETE FROM clients;")
  }

  func optional(_ text: String?) -> SQLiteStatement.Value {
    text.map { .text($0) } ?? .null
  }

  func optional(_ number: Int64?) -> SQLiteStatement.Value {
    number.map { .integer($0) } ?? .null
  }
}

/// A database that holds tables, but not a tpns-server registry's.
struct RegistrySchemaError: Error, CustomStringConvertible {
  let reason: String

  var description: String { reason }
}
