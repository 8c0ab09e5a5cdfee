import Foundation
import TPNSTestSupport
import Testing

/// The service maps only UIDs activated in the vendor's console; for another
/// it answers 200 with a body starting `422`. tpns reports such a UID by name
/// with the fix and exits 76, keeps it stored but not acknowledged, and
/// `status` says "not activated at this server" rather than pending or in
/// sync, until a later `sync` (or `watch`'s interval) finds it activated.
@Suite struct NotActivatedTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"
  static let fix = "Activate UID \(b) in your TPNS console, then run 'tpns sync'."

  static func document(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
  }

  /// `tpns status --json`'s refused and acknowledged UIDs, and whether it says pending.
  static func status(_ tpns: TPNSProcess) throws -> (
    refused: [String]?, held: [String]?, pending: Bool?
  ) {
    let json = try document(try tpns.run(["status", "--json"]).stdout)
    return (
      json["not_activated"] as? [String], json["acknowledged_uids"] as? [String],
      json["pending"] as? Bool
    )
  }

  /// How many `mapsync` requests the emulator received.
  static func mapsyncs(_ e2e: EndToEnd) throws -> Int {
    try e2e.server.requests().filter { $0.raw.contains("cmd=mapsync") }.count
  }

  @Test(
    "a UID the emulator has not activated: exit 76 naming it with the fix, stored, not acknowledged, shown as not activated; synced once activated"
  )
  func emulatorRefusesUID() throws {
    let e2e = try EndToEnd()
    let tpns = e2e.tpns
    #expect(try tpns.run(["register", EndToEnd.token]).status == 0)
    try e2e.server.activate(only: [Self.a])
    let added = try tpns.run(["add", Self.a, Self.b])
    #expect(added.status == 76)
    #expect(
      added.stderrWithoutWarnings
        == "Error: mapsync: the server refused UID \(Self.b) as not activated\n\(Self.fix)\n")
    #expect(try e2e.store.load().uids == [Self.a, Self.b])
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.a])
    let text = try tpns.run(["status"])
    #expect(text.status == 0)
    #expect(
      text.stdout.contains("\npending     no, but the server refused 1 UID as not activated\n"))
    #expect(
      text.stdout.contains(
        "\nrefused     \(Self.b), not activated at this server: activate it in your TPNS "
          + "console, then tpns sync\n"))
    #expect(!text.stdout.contains("the server has the list"))
    let status = try Self.status(tpns)
    #expect(status.refused == [Self.b])
    #expect(status.held == [Self.a])
    #expect(status.pending == false)
    // Asked again before it is activated: one mapsync, refused again, in the document.
    let before = try Self.mapsyncs(e2e)
    let again = try tpns.run(["sync", "--json"])
    #expect(again.status == 76)
    let json = try Self.document(again.stdout)
    #expect(json["exit_code"] as? Int == 76)
    #expect(json["not_activated"] as? [String] == [Self.b])
    #expect(json["hint"] as? String == Self.fix)
    #expect(try Self.mapsyncs(e2e) == before + 1)
    try e2e.server.activate(only: [Self.a, Self.b])
    #expect(try tpns.run(["sync"]).status == 0)
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.a, Self.b])
    let synced = try Self.status(tpns)
    #expect(synced.refused == [])
    #expect(synced.held == [Self.a, Self.b])
    #expect(try tpns.run(["status"]).stdout.contains("no, the server has the list"))
  }

  @Test(
    "a plain server's 200 whose body starts with 422 refuses the UIDs it names (all when it names none); another 200 body is success",
    arguments: [
      ("422 {\"uid\": \"\(b.lowercased())\"}\n", Int32(76), [b]),
      ("422\n", 76, [a, b]),
      ("200 ok\n", 0, []),
      ("ok", 0, []),
    ] as [(String, Int32, [String])])
  func stubServer(body: String, exit: Int32, refused: [String]) throws {
    let stub = try ScriptedServer(status: 200, body: body)
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: stub.base + "/tpns")
    #expect(try tpns.run(["register", EndToEnd.token]).status == 0)
    let added = try tpns.run(["add", Self.a, Self.b])
    #expect(added.status == exit)
    for uid in refused { #expect(added.stderr.contains(uid)) }
    let status = try Self.status(tpns)
    #expect(status.refused == refused)
    #expect(status.held == [Self.a, Self.b].filter { !refused.contains($0) })
    #expect(status.pending == false)
  }

  @Test("mapping of a UID not activated: exit 76 naming it with the fix")
  func mappingRefused() throws {
    let e2e = try EndToEnd()
    let tpns = e2e.tpns
    #expect(try tpns.run(["register", EndToEnd.token]).status == 0)
    try e2e.server.activate(only: [Self.a])
    let result = try tpns.run(["mapping", Self.b])
    #expect(result.status == 76)
    #expect(
      result.stderrWithoutWarnings
        == "Error: mapping: the server refused UID \(Self.b) as not activated\n\(Self.fix)\n")
    #expect(try e2e.store.load().uids == [Self.b])
    #expect(try Self.status(tpns).refused == [Self.b])
  }

  @Test(
    "a refused rm-mapping leaves the UID mapped and acknowledged, pending removal, until sync or watch sends the list without it",
    .timeLimit(.minutes(1)), arguments: [false, true])
  func removalRefusedStaysPending(watching: Bool) throws {
    let e2e = try EndToEnd()
    let tpns = e2e.tpns
    #expect(try tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try tpns.run(["add", Self.b]).status == 0)
    try e2e.server.activate(only: [Self.a])
    let result = try tpns.run(["rm-mapping", Self.b])
    #expect(result.status == 76)
    #expect(
      result.stderrWithoutWarnings
        == "Error: rm_mapping: the server refused UID \(Self.b) as not activated\n"
        + "The server still maps UID \(Self.b); 'tpns sync' sends the list without it.\n")
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.b])
    let json = try Self.document(try tpns.run(["status", "--json"]).stdout)
    #expect(json["acknowledged_uids"] as? [String] == [Self.b])
    #expect(json["pending"] as? Bool == true)
    #expect(json["to_remove"] as? Int == 1)
    #expect(json["next"] as? String == "tpns sync")
    if watching {
      let watch = try WatchTests.startWatch(tpns)
      defer { if watch.isRunning { watch.terminate() } }
      #expect(
        try WatchTests.eventually(within: .seconds(20)) {
          try e2e.server.mappedUIDs(udid: EndToEnd.token).isEmpty
        })
      // Still watching: the server's answer may not be recorded yet.
      #expect(
        try WatchTests.eventually(within: .seconds(20)) { try Self.status(tpns).held == [] })
    } else {
      #expect(try tpns.run(["sync"]).status == 0)
      #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [])
    }
    #expect(
      try WatchTests.eventually(within: .seconds(20)) { try Self.status(tpns).held == [] })
    #expect(try Self.status(tpns).pending == false)
  }

  @Test("rm-mapping of a UID the server never held: no activation hint, nothing pending")
  func removalRefusedOfUIDNeverHeld() throws {
    let e2e = try EndToEnd()
    let tpns = e2e.tpns
    #expect(try tpns.run(["register", EndToEnd.token]).status == 0)
    try e2e.server.activate(only: [Self.a])
    #expect(try tpns.run(["add", Self.b]).status == 76)
    let result = try tpns.run(["rm-mapping", Self.b])
    #expect(result.status == 76)
    #expect(!result.stderr.contains("Activate"), "\(result.stderr)")
    #expect(result.stderr.contains("nothing is left to remove"), "\(result.stderr)")
    let status = try Self.status(tpns)
    #expect(status.held == [] && status.refused == [] && status.pending == false)
  }

  @Test(
    "add or import of a UID already stored and refused as not activated: exit 0, warned with the fix",
    arguments: [false, true])
  func alreadyStoredAndRefused(importing: Bool) throws {
    let e2e = try EndToEnd()
    let tpns = e2e.tpns
    #expect(try tpns.run(["register", EndToEnd.token]).status == 0)
    try e2e.server.activate(only: [Self.a])
    #expect(try tpns.run(["add", Self.a, Self.b]).status == 76)
    let file = e2e.directory.file("uids.plist")
    try Data(ImportTests.xmlPreferences([Self.b]).utf8).write(to: URL(fileURLWithPath: file))
    let arguments = importing ? ["import", file] : ["add", Self.b]
    let warning =
      "\(Self.b) was refused by this server as not activated: activate it in your TPNS "
      + "console, then tpns sync"
    let text = try tpns.run(arguments)
    #expect(text.status == 0)
    #expect(text.stdout == "\(Self.b) is already in the list\n")
    #expect(text.stderr.contains("Warning: \(warning)\n"), "\(text.stderr)")
    let json = try tpns.run(arguments + ["--json"])
    #expect(json.status == 0)
    #expect((try Self.document(json.stdout)["warnings"] as? [String])?.contains(warning) == true)
    // One the server holds is only already in the list.
    #expect(!(try tpns.run(["add", Self.a]).stderr.contains("not activated")))
    // Refused again by the request: its error names it, no warning repeats it.
    let mapped = try tpns.run(["mapping", Self.b])
    #expect(mapped.status == 76 && !mapped.stderr.contains(warning))
  }

  @Test(
    "watch sends a refused UID again at its --interval, not in a loop, and holds it once activated",
    .timeLimit(.minutes(1)))
  func watchRetriesAtItsPace() throws {
    let e2e = try EndToEnd()
    let tpns = e2e.tpns
    #expect(try tpns.run(["register", EndToEnd.token]).status == 0)
    try e2e.server.activate(only: [Self.a])
    #expect(try tpns.run(["add", Self.a, Self.b]).status == 76)
    let before = try Self.mapsyncs(e2e)
    let started = ContinuousClock.now
    let watch = try WatchTests.startWatch(tpns, ["--interval", "1"])
    defer { if watch.isRunning { watch.terminate() } }
    #expect(
      try WatchTests.eventually(within: .seconds(20)) { try Self.mapsyncs(e2e) >= before + 2 })
    let seconds = Int((ContinuousClock.now - started).components.seconds)
    #expect(try Self.mapsyncs(e2e) - before <= seconds + 2)
    try e2e.server.activate(only: [Self.a, Self.b])
    #expect(
      try WatchTests.eventually(within: .seconds(20)) {
        try Self.status(tpns).held == [Self.a, Self.b]
      })
    #expect(try Self.status(tpns).refused == [])
  }
}
