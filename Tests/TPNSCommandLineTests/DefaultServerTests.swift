import Foundation
import TPNSTestSupport
import Testing

/// The default server is the https one shipping apps use; a store written when the
/// default was the quickstart's http URL keeps its acknowledgements there, and
/// `status` says which server is in use and where they are.
@Suite("Default server: https on 7380, and a store from the former default")
struct DefaultServerTests {
  static let former = "http://push.iotcplatform.com/tpns"
  static let current = "https://push.iotcplatform.com:7380/tpns"

  /// A store registered and synced at the emulator, then moved to the former default:
  /// what a store from before the change holds.
  static func formerStore() throws -> EndToEnd {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["add", "ABCDEFGHJKLMNPRSTUVW"]).status == 0)
    let text = try String(contentsOfFile: e2e.tpns.store, encoding: .utf8)
    #expect(text.contains(e2e.server.server))
    try text.replacingOccurrences(of: e2e.server.server, with: former)
      .write(toFile: e2e.tpns.store, atomically: false, encoding: .utf8)
    return e2e
  }

  /// `tpns ARGUMENTS` with no TPNS_SERVER: the default server.
  static func runWithDefault(_ e2e: EndToEnd, _ arguments: [String]) throws -> TPNSProcess.Result {
    try e2e.tpns.run(
      ["-u", "TPNS_SERVER", TPNSProcess.binary] + arguments, executable: "/usr/bin/env")
  }

  @Test("status names the default server in use and the acknowledgements at the former one")
  func statusText() throws {
    let e2e = try Self.formerStore()
    let result = try Self.runWithDefault(e2e, ["status"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "server      \(Self.current)")
    #expect(lines.contains("registered  no (acknowledged at \(Self.former), not here)"))
    #expect(
      lines.last
        == "note        the store's acknowledgements are at the former default, \(Self.former) "
        + "(--server \(Self.former) uses it; tpns sync sends the store here)")
  }

  @Test("status at a third server names every server the registration is acknowledged at")
  func statusNamesEveryServer() throws {
    let e2e = try EndToEnd()
    let second = try RunningEmulator()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["sync", "--server", second.server]).status == 0)
    let result = try e2e.tpns.run(["status", "--server", "http://127.0.0.1:9/tpns"])
    let servers = [e2e.server.server, second.server].sorted().joined(separator: ", ")
    #expect(result.stdout.contains("registered  no (acknowledged at \(servers), not here)\n"))
  }

  @Test("status --json names the former default; with --server it, the store is in line")
  func statusJSON() throws {
    let e2e = try Self.formerStore()
    let json = try Self.runWithDefault(e2e, ["status", "--json"])
    let document =
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any] ?? [:]
    #expect(document["server"] as? String == Self.current)
    #expect(document["former_default_server"] as? String == Self.former)
    #expect(document["registered_servers"] as? [String] == [Self.former])
    #expect(document["pending"] as? Bool == true)

    let there = try Self.runWithDefault(e2e, ["status", "--server", Self.former])
    #expect(there.stdout.contains("registered  yes\n"))
    #expect(there.stdout.contains("pending     no, the server has the list\n"))
    #expect(!there.stdout.contains("note"))
    let thereJSON = try Self.runWithDefault(e2e, ["status", "--json", "--server", Self.former])
    let thereDocument =
      try JSONSerialization.jsonObject(with: Data(thereJSON.stdout.utf8)) as? [String: Any]
      ?? [:]
    #expect(thereDocument["former_default_server"] is NSNull)
  }

  @Test("a store with no acknowledgements at the former default has no note")
  func noNote() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["add", "--no-sync", "ABCDEFGHJKLMNPRSTUVW"]).status == 0)
    let result = try Self.runWithDefault(e2e, ["status"])
    #expect(result.stdout.hasPrefix("server      \(Self.current)\n"))
    #expect(!result.stdout.contains("note"))
  }
}
