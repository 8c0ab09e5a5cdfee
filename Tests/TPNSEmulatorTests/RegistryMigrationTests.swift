import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSEmulator

@Suite("RegistryStore: a registry an earlier version created")
struct RegistryMigrationTests {
  /// The schema of version 1 (tpns-server 0.1.0), before the `extra` columns.
  static let version1 = """
    CREATE TABLE clients (
      appid TEXT NOT NULL, udid TEXT NOT NULL, os TEXT NOT NULL, token TEXT,
      token_key TEXT UNIQUE, lang TEXT, dev INTEGER, bgfetch INTEGER,
      registered_at INTEGER NOT NULL, last_seen INTEGER NOT NULL, PRIMARY KEY (appid, udid));
    CREATE TABLE mappings (
      appid TEXT NOT NULL, udid TEXT NOT NULL, uid TEXT NOT NULL, position INTEGER NOT NULL,
      push_interval INTEGER, format TEXT, created_at INTEGER NOT NULL,
      PRIMARY KEY (appid, udid, uid),
      FOREIGN KEY (appid, udid) REFERENCES clients (appid, udid) ON DELETE CASCADE);
    CREATE INDEX mappings_by_uid ON mappings (uid);
    CREATE TABLE devices (
      uid TEXT PRIMARY KEY, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL,
      announcements INTEGER NOT NULL);
    CREATE TABLE notifications (
      id INTEGER PRIMARY KEY, appid TEXT NOT NULL, udid TEXT NOT NULL, os TEXT NOT NULL,
      token TEXT NOT NULL, uid TEXT NOT NULL, event_type INTEGER NOT NULL, msg TEXT,
      event_time INTEGER, created_at INTEGER NOT NULL);
    CREATE INDEX notifications_by_udid ON notifications (udid);
    PRAGMA user_version = 1;
    INSERT INTO clients VALUES ('a.b', 'phone', 'ios', 'tok', 'tok', 'en', 1, NULL, 1000, 2000);
    INSERT INTO mappings VALUES ('a.b', 'phone', 'ABCDEFGHJK0000000001', 0, 30, NULL, 1500);
    INSERT INTO devices VALUES ('ABCDEFGHJK0000000001', 1000, 3000, 2);
    INSERT INTO notifications VALUES
      (1, 'a.b', 'phone', 'ios', 'tok', 'ABCDEFGHJK0000000001', 1, 'hi', NULL, 4000);
    """

  @Test("opens with its rows as they were, gains the extra columns, and is version 2")
  func upgradesVersion1() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry.sqlite")
    do {
      let database = try SQLiteConnection(path: path)
      try database.execute(Self.version1)
      database.close()
    }

    let server = try TestEmulator(database: path)
    let client = try #require(try server.clients().first)
    #expect(client["udid"] as? String == "phone")
    #expect(client["lang"] as? String == "en")
    #expect((client["extra"] as? [String: Any])?.isEmpty == true)
    let mapping = try #require(try server.registry("mappings").first)
    #expect(mapping["interval"] as? Int == 30)
    #expect((mapping["extra"] as? [String: Any])?.isEmpty == true)
    #expect(try server.registry("devices").first?["announcements"] as? Int == 2)
    #expect(try server.notifications().first?["msg"] as? String == "hi")

    // What the new columns are for works on the old file.
    let reply = try server.get("cmd=device&uid=ABCDEFGHJK0000000001&debug=1")
    #expect(reply.status == 200)
    #expect(try server.registry("devices").first?["extra"] as? [String: String] == ["debug": "1"])
    #expect(try server.registry("devices").first?["announcements"] as? Int == 3)
    server.emulator.stop()

    let database = try SQLiteConnection(path: path)
    defer { database.close() }
    let version = try database.statement("PRAGMA user_version").rows { $0.integer(0) }
    #expect(version == [Int64(RegistryStore.schemaVersion)])
    #expect(RegistryStore.schemaVersion == 2)
  }

  @Test("a version 2 registry opens again unchanged")
  func reopens() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry.sqlite")
    do {
      let server = try TestEmulator(database: path)
      #expect(try server.get("cmd=device&uid=ABCDEFGHJK0000000001&debug=1").status == 200)
    }
    let server = try TestEmulator(database: path)
    #expect(try server.registry("devices").first?["extra"] as? [String: String] == ["debug": "1"])
  }
}
