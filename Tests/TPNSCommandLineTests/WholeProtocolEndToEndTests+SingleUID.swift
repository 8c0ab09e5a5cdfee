import Foundation
import TPNSEmulator
import TPNSTestSupport
import Testing

/// The single-UID commands end to end: `unregister`, `mapping` and
/// `rm-mapping` send one command each and keep the store the source of truth;
/// each new command has its `--help`.
extension WholeProtocolEndToEndTests {
  // MARK: unregister

  @Test(
    "unregister: every UID leaves the store, one unreg_mapping without a uid clears the server, and nothing is pending"
  )
  func unregisterAll() throws {
    let (e2e, _) = try Self.registered([Self.a, Self.b])
    #expect(try e2e.tpns.run(["mapping", Self.a, "--interval", "9"]).status == 0)
    let after = try e2e.server.requestLog().count
    let result = try e2e.tpns.run(["unregister", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let document = jsonDocument(result)
    let outcomes = document["outcomes"] as? [[String: Any]] ?? []
    #expect(outcomes.map { $0["event"] as? String } == ["removed", "removed", "unmapped"])
    #expect(outcomes.last?["cmd"] as? String == "unreg_mapping")
    #expect(outcomes.last?["uid"] is NSNull)
    #expect(document["uids"] as? [String] == [])
    #expect(document["pending"] as? Bool == false)
    let sent = try Self.sent(e2e, since: after)
    #expect(sent.map(\.command) == ["unreg_mapping"])
    #expect(sent.first?.parameters["uid"] == nil)
    #expect(sent.first?.parameters["udid"] == Self.token)
    #expect(sent.first?.status == 200)
    #expect(try e2e.server.registry().mappings == [])
    let store = try StoreFile(path: e2e.tpns.store)
    #expect(store.uids == [] && store.settings == [:])
    #expect(
      store.acknowledged(at: e2e.server.server)
        == .init(registration: .init(token: Self.token), uids: []))
    #expect(try e2e.server.replicaMismatches(of: store) == [])
    // The token stays registered: adding maps again.
    #expect(try e2e.tpns.run(["add", Self.c]).status == 0)
    #expect(try e2e.server.mappedUIDs(udid: Self.token) == [Self.c])
  }

  @Test(
    "unregister --uid: those UIDs only, one unreg_mapping with a uid each; a UID neither stored nor held is 65 and sends nothing"
  )
  func unregisterSome() throws {
    let (e2e, before) = try Self.registered([Self.a, Self.b, Self.c])
    var result = try e2e.tpns.run(["unregister", "--uid", Self.b, "--uid", Self.c.lowercased()])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == "removed 1  \(Self.b)\nremoved 2  \(Self.c)\n"
        + "sent unreg_mapping of \(Self.b) to \(e2e.server.server): 200 ok: unregistered successfully. \(Self.b) unmapped\n"
        + "sent unreg_mapping of \(Self.c) to \(e2e.server.server): 200 ok: unregistered successfully. \(Self.c) unmapped\n"
    )
    let sent = try Self.sent(e2e, since: before)
    #expect(sent.map(\.command) == ["unreg_mapping", "unreg_mapping"])
    #expect(sent.map { $0.parameters["uid"] } == [Self.b, Self.c])
    #expect(try e2e.server.mappedUIDs(udid: Self.token) == [Self.a])
    let store = try StoreFile(path: e2e.tpns.store)
    #expect(store.uids == [Self.a])
    #expect(try e2e.server.replicaMismatches(of: store) == [])
    #expect(try Self.status(e2e)["pending"] as? Bool == false)

    let count = try e2e.server.requestLog().count
    result = try e2e.tpns.run(["unregister", "--uid", Self.b])
    #expect(
      result
        == .init(
          status: 65, stdout: "",
          stderr: "Error: \(Self.b) is not in the list\nRun 'tpns list' to see the stored UIDs.\n"))
    result = try e2e.tpns.run(["unregister", "--uid", "front-door"])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("Error: invalid UID 'front-door'"))
    #expect(try e2e.server.requestLog().count == count)
  }

  // MARK: mapping and rm-mapping

  @Test(
    "mapping: the UID is stored with its settings and sent alone (cmd=mapping), no mapsync; sent again when re-run"
  )
  func mapping() throws {
    let (e2e, before) = try Self.registered([Self.a])
    var result = try e2e.tpns.run(["mapping", Self.b, "--interval", "5", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let outcomes = jsonDocument(result)["outcomes"] as? [[String: Any]] ?? []
    #expect(outcomes.map { $0["event"] as? String } == ["added", "mapped"])
    #expect(outcomes.last?["uid"] as? String == Self.b)
    #expect(outcomes.last?["interval"] as? Int == 5)
    var sent = try Self.sent(e2e, since: before)
    #expect(sent.map(\.command) == ["mapping"])
    #expect(sent.first?.parameters["uid"] == Self.b)
    #expect(sent.first?.parameters["interval"] == "5")
    #expect(sent.first?.parameters["format"] == nil)
    #expect(sent.first?.status == 200)
    let mappings = try e2e.server.registry().mappings
    #expect(Set(mappings.map(\.uid)) == [Self.a, Self.b])
    #expect(mappings.first { $0.uid == Self.b }?.interval == 5)
    let store = try StoreFile(path: e2e.tpns.store)
    #expect(store.uids == [Self.a, Self.b])
    #expect(store.settings == [Self.b: .init(interval: 5)])
    #expect(store.acknowledged(at: e2e.server.server).uids == [Self.a, Self.b])
    #expect(try e2e.server.replicaMismatches(of: store) == [])
    #expect(try Self.status(e2e)["pending"] as? Bool == false)

    result = try e2e.tpns.run(["mapping", Self.b])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == "\(Self.b) is already in the list\nmapped \(Self.b) (interval 5 s) at \(e2e.server.server)\n"
    )
    sent = try Self.sent(e2e, since: before)
    #expect(sent.map(\.command) == ["mapping", "mapping"])
    #expect(sent.last?.parameters["interval"] == "5", "the stored settings go with it")
  }

  @Test("mapping before register: the UID waits in the list, nothing is sent")
  func mappingBeforeRegister() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["mapping", Self.a])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasSuffix("(tpns register --token-file FILE, or TPNS_TOKEN)\n"))
    #expect(try e2e.server.requestLog() == [])
    #expect(try StoreFile(path: e2e.tpns.store).uids == [Self.a])
  }

  @Test(
    "rm-mapping: the UID leaves the store and its removal is sent alone (cmd=rm_mapping); again, it is not in the list: 65, nothing sent"
  )
  func removeMapping() throws {
    let (e2e, before) = try Self.registered([Self.a, Self.b])
    var result = try e2e.tpns.run(["rm-mapping", Self.b])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == "removed 1  \(Self.b)\nsent rm_mapping of \(Self.b) to \(e2e.server.server)"
        + ": 200 ok: \(Self.b) unmapped\n")
    let sent = try Self.sent(e2e, since: before)
    #expect(sent.map(\.command) == ["rm_mapping"])
    #expect(sent.first?.parameters["uid"] == Self.b)
    #expect(sent.first?.status == 200)
    #expect(try e2e.server.mappedUIDs(udid: Self.token) == [Self.a])
    let store = try StoreFile(path: e2e.tpns.store)
    #expect(store.uids == [Self.a])
    #expect(store.acknowledged(at: e2e.server.server).uids == [Self.a])
    #expect(try Self.status(e2e)["pending"] as? Bool == false)

    result = try e2e.tpns.run(["rm-mapping", Self.b, "--json"])
    #expect(result.status == 65)
    let document = jsonDocument(result)
    #expect(document["errors"] as? [String] == ["\(Self.b) is not in the list"])
    #expect(document["hint"] as? String == "Run 'tpns list' to see the stored UIDs.")
    #expect(try Self.sent(e2e, since: before).count == 1)
  }

  @Test(
    "rm-mapping of a UID removed with --no-sync, which the server still holds: its removal is sent"
  )
  func removeMappingAfterNoSync() throws {
    let (e2e, before) = try Self.registered([Self.a, Self.b])
    #expect(try e2e.tpns.run(["remove", "--uid", Self.b, "--no-sync"]).status == 0)
    let result = try e2e.tpns.run(["rm-mapping", Self.b])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("\(Self.b) is no longer in the list; sending its removal\n"))
    #expect(try Self.sent(e2e, since: before).map(\.command) == ["rm_mapping"])
    #expect(try e2e.server.mappedUIDs(udid: Self.token) == [Self.a])
  }

  // MARK: help

  @Test(
    "each new command has --help, with its options",
    arguments: [
      ("mapping", ["--interval", "--format", "--no-interval", "--no-format", "--json"]),
      ("rm-mapping", ["--json", "--server"]),
      ("unregister", ["--uid", "--json", "--server"]),
      ("add", ["--interval", "--format", "--no-interval", "--no-format", "--no-sync"]),
    ])
  func help(command: String, options: [String]) throws {
    let result = try HelpTests.tpns.run([command, "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("\nUSAGE: tpns \(command)"))
    #expect(!result.stdout.contains("\\\n"), "a line continuation left in the discussion")
    let listed = HelpTests.options(result.stdout)
    for option in options {
      #expect(listed.contains(option), "\(command) --help lacks \(option): \(listed)")
    }
    let root = try HelpTests.tpns.run(["--help"])
    #expect(root.stdout.contains("\n  \(command) "))
  }
}
