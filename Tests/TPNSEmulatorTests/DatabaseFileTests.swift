import Foundation
import Locking
import TPNSTestSupport
import Testing

@testable import TPNSEmulator

/// The `--db` file deleted or replaced while the emulator runs: SQLite would keep
/// writing to the nameless file, so health says so and every change is refused.
@Suite("DatabaseFile: the database file deleted or replaced under the running emulator")
struct DatabaseFileTests {
  /// An emulator on a database in a fresh directory, with one phone registered and
  /// mapped to `uid(1)`, and the warnings it reported.
  final class Fixture {
    let directory: TemporaryDirectory
    let path: String
    let server: TestEmulator
    let warnings = LockedState<[String]>([])

    init() throws {
      directory = try TemporaryDirectory()
      path = directory.file("registry.sqlite")
      let warnings = warnings
      server = try TestEmulator(
        database: path, warning: { line in warnings.withLock { $0.append(line) } })
      let token = try server.registerIOS()
      let reply = try server.get("cmd=mapping&\(Self.phone(token))&uid=\(TestEmulator.uid(1))")
      guard reply.status == 200 else {
        throw RawHTTPClient.Failure(description: "cmd=mapping answered \(reply.status)")
      }
    }

    static func phone(_ token: String = TestEmulator.token(1)) -> String {
      "os=ios&appid=\(TestEmulator.appid)&udid=\(token)"
    }

    /// Removes the database's files with these suffixes (`""`: the database).
    func remove(_ suffixes: [String]) throws {
      for suffix in suffixes { try FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The one-line error body the emulator answers for `error`.
    static func body(_ error: DatabaseFileError) -> String { "error: \(error.description)\n" }
  }

  /// A state-changing request of each command (and the reset knob), valid for the
  /// fixture's phone: each records something.
  static let changes: [(method: String, target: String)] = [
    ("GET", "/tpns?cmd=client&\(Fixture.phone())&token=\(TestEmulator.token(1))"),
    ("GET", "/tpns?cmd=mapsync&\(Fixture.phone())&map=\(TestEmulator.map([TestEmulator.uid(2)]))"),
    ("GET", "/tpns?cmd=mapping&\(Fixture.phone())&uid=\(TestEmulator.uid(2))"),
    ("GET", "/tpns?cmd=rm_mapping&\(Fixture.phone())&uid=\(TestEmulator.uid(1))"),
    ("GET", "/tpns?cmd=unreg_mapping&\(Fixture.phone())"),
    ("GET", "/tpns?cmd=device&uid=\(TestEmulator.uid(1))"),
    ("GET", "/tpns?cmd=event&uid=\(TestEmulator.uid(1))&event_type=1"),
    ("POST", "/_emulator/reset"),
  ]

  @Test(
    "a deleted database: health answers 503 saying so, cmd=client 503 with the reason",
    arguments: [[""], ["", "-wal", "-shm"]])
  func deleted(suffixes: [String]) throws {
    let fixture = try Fixture()
    let before = try fixture.server.registryText()
    try fixture.remove(suffixes)
    let error = DatabaseFileError(path: fixture.path, problem: .missing, isLog: false)
    #expect(error.description.contains("'\(fixture.path)' was deleted"))
    #expect(error.description.hasSuffix("(restart tpns-server)"))

    let health = try fixture.server.inspect("health")
    #expect(health.status == 503)
    #expect(health.headers["content-type"] == "application/json")
    let json = try #require(health.json as? [String: String])
    #expect(
      json == [
        "status": "database missing", "database": fixture.path, "error": error.description,
      ])

    let reply = try fixture.server.get(
      "cmd=client&\(Fixture.phone(TestEmulator.token(2)))&token=\(TestEmulator.token(2))")
    #expect(reply.status == 503)
    #expect(reply.body == Fixture.body(error))
    #expect(try fixture.server.registryText() == before)
  }

  @Test("every state-changing request is refused with 503 and changes nothing", arguments: changes)
  func changesRefused(method: String, target: String) throws {
    let fixture = try Fixture()
    _ = try fixture.server.get("cmd=event&uid=\(TestEmulator.uid(1))&event_type=1")
    let registry = try fixture.server.registryText()
    let notifications = try fixture.server.inspect("notifications").body
    try fixture.remove([""])

    let reply = try RawHTTPClient.send(port: fixture.server.port, method: method, target: target)
    #expect(reply.status == 503)
    let error = DatabaseFileError(path: fixture.path, problem: .missing, isLog: false)
    #expect(reply.body == Fixture.body(error))
    #expect(try fixture.server.registryText() == registry)
    #expect(try fixture.server.inspect("notifications").body == notifications)
  }

  @Test(
    "read-only inspection still answers 200 from the open database",
    arguments: ["registry", "notifications", "requests", "faults"])
  func inspectionAnswers(path: String) throws {
    let fixture = try Fixture()
    try fixture.remove([""])
    #expect(try fixture.server.inspect(path).status == 200)
  }

  @Test("a file renamed over the database counts as replaced")
  func replaced() throws {
    let fixture = try Fixture()
    let other = fixture.directory.file("other.sqlite")
    #expect(FileManager.default.createFile(atPath: other, contents: Data("x".utf8)))
    #expect(rename(other, fixture.path) == 0)

    let error = DatabaseFileError(path: fixture.path, problem: .replaced, isLog: false)
    #expect(error.description.contains("'\(fixture.path)' was replaced by another file"))
    let health = try fixture.server.inspect("health")
    #expect(health.status == 503)
    #expect((health.json as? [String: String])?["error"] == error.description)
    let reply = try fixture.server.get("cmd=device&uid=\(TestEmulator.uid(3))")
    #expect(reply.status == 503)
    #expect(reply.body == Fixture.body(error))
  }

  /// SQLite keeps writing to the deleted log, and only a clean stop copies it into the
  /// database: a crash would lose everything acknowledged since the last checkpoint.
  @Test("a deleted write-ahead log is refused too, naming the -wal file")
  func logDeleted() throws {
    let fixture = try Fixture()
    try fixture.remove(["-wal", "-shm"])

    let error = DatabaseFileError(path: fixture.path + "-wal", problem: .missing, isLog: true)
    let health = try fixture.server.inspect("health")
    #expect(health.status == 503)
    #expect((health.json as? [String: String])?["error"] == error.description)
    let reply = try fixture.server.get("cmd=device&uid=\(TestEmulator.uid(3))")
    #expect(reply.status == 503)
    #expect(reply.body == Fixture.body(error))
  }

  @Test("the problem is reported once as a warning, however many requests find it")
  func warnedOnce() throws {
    let fixture = try Fixture()
    #expect(fixture.warnings.withLock { $0 } == [])
    try fixture.remove([""])
    _ = try fixture.server.inspect("health")
    _ = try fixture.server.get("cmd=device&uid=\(TestEmulator.uid(3))")
    _ = try fixture.server.get("cmd=device&uid=\(TestEmulator.uid(3))")
    let error = DatabaseFileError(path: fixture.path, problem: .missing, isLog: false)
    #expect(fixture.warnings.withLock { $0 } == [error.description])
  }

  @Test("a database moved away and back is used again")
  func movedBack() throws {
    let fixture = try Fixture()
    let aside = fixture.directory.file("aside.sqlite")
    #expect(rename(fixture.path, aside) == 0)
    #expect(try fixture.server.get("cmd=device&uid=\(TestEmulator.uid(3))").status == 503)
    #expect(rename(aside, fixture.path) == 0)
    #expect(try fixture.server.inspect("health").status == 200)
    #expect(try fixture.server.get("cmd=device&uid=\(TestEmulator.uid(3))").status == 200)
  }
}
