import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSCommandLine

/// What tpns reports is what it knows: an unreadable store reports no facts,
/// a sync that sent nothing does not pass, a list edited by hand is not
/// counted, and a server's answer is said as it came.
@Suite struct TruthfulReportTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"
  static let c = "BBBBBBBBBBBBBBBBBBBB"
  static let androidToken = "fcm-token.ONE"

  static func document(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
  }

  @Test(
    "a store that cannot be read or is unsafe reports its facts as null, and README's wait loop does not pass",
    arguments: [["status"], ["add", a], ["sync"], ["list"]] as [[String]])
  func unreadableStoreHasNoFacts(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    for unsafe in [false, true] {
      try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: tpns.store))
      if unsafe { #expect(chmod(tpns.store, 0o666) == 0) }
      let result = try tpns.run(arguments + ["--json"])
      #expect(result.status == (unsafe ? 73 : 65), "\(result.stderr)")
      #expect(!result.stdout.contains("\"pending\":false"), "\(result.stdout)")
      let document = try Self.document(result.stdout)
      #expect(document["ok"] as? Bool == false)
      guard arguments != ["list"] else { continue }
      for key in ["uids", "registered", "pending", "needs_registration", "next"] {
        #expect(document[key] is NSNull, "\(key): \(String(describing: document[key]))")
      }
    }
    // Text mode says the error, nothing about what is pending.
    try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: tpns.store))
    #expect(chmod(tpns.store, 0o600) == 0)
    let text = try tpns.run(["status"])
    #expect(text.status == 65)
    #expect(text.stdout.isEmpty)
    #expect(text.stderr.hasPrefix("Error: the store \(tpns.store) cannot be read"))
  }

  @Test(
    "sync without a token sends nothing and exits 78, saying to register, with needs_registration")
  func syncWithoutToken() throws {
    let e2e = try EndToEnd()
    for uids in [[], [Self.a]] {
      if !uids.isEmpty { #expect(try e2e.tpns.run(["add"] + uids).status == 0) }
      let result = try e2e.tpns.run(["sync", "--json"])
      #expect(result.status == 78)
      let document = try Self.document(result.stdout)
      #expect(document["ok"] as? Bool == false)
      #expect(document["exit_code"] as? Int == 78)
      #expect(document["needs_registration"] as? Bool == true)
      #expect((document["hint"] as? String)?.contains("tpns register") == true)
      let text = try e2e.tpns.run(["sync"])
      #expect(text.status == 78)
      #expect(
        text.stderr
          == "Error: no token is registered: nothing was sent to \(e2e.server.server)\n"
          + "Register the phone's token first (tpns register --token-file FILE, or TPNS_TOKEN), "
          + "which sends the stored list too.\n")
    }
    #expect(try e2e.server.requests().isEmpty)
    // With a token, sync is as before.
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["sync"]).status == 0)
  }

  @Test("status without a token does not say the server has the list")
  func statusWithoutToken() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let result = try tpns.run(["status"])
    #expect(result.status == 0)
    #expect(!result.stdout.contains("the server has the list"))
    #expect(result.stdout.contains("pending     no: no token and no UIDs are stored\n"))
    let json = try Self.document(try tpns.run(["status", "--json"]).stdout)
    #expect(json["pending"] as? Bool == false)
    #expect(json["needs_registration"] as? Bool == true)
  }

  @Test(
    "after a hand edit of UIDs, status counts against the server's list; a list recorded as unknown stays unknown (no counts) until a sync, across other writes"
  )
  func handEditedList() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["add", Self.a]).status == 0)
    // The user replaces the list by hand (the top-level `UIDs`, one tab in;
    // the server's list, three tabs in, stays as it is).
    let text = try #require(String(data: contents(of: e2e.tpns.store) ?? Data(), encoding: .utf8))
    let edited = text.replacingOccurrences(
      of: "\t<key>UIDs</key>\n\t<array>\n\t\t<string>\(Self.a)</string>\n\t</array>",
      with: "\t<key>UIDs</key>\n\t<array>\n\t\t<string>\(Self.b)</string>\n"
        + "\t\t<string>\(Self.c)</string>\n\t\t<string>\(Self.a)</string>\n\t</array>")
    #expect(edited != text)
    try Data(edited.utf8).write(to: URL(fileURLWithPath: e2e.tpns.store))
    let counted = try e2e.tpns.run(["status"])
    #expect(counted.stdout.contains("2 to add, 0 to remove"), "\(counted.stdout)")
    #expect(
      try Self.document(try e2e.tpns.run(["status", "--json"]).stdout)["to_add"] as? Int == 2)
    // A server's list an earlier tpns recorded as unknown (runs it could no
    // longer read after such an edit).
    let unknown = edited.replacingOccurrences(
      of:
        "\t\t\t<key>UIDs</key>\n\t\t\t<array>\n\t\t\t\t<string>\(Self.a)</string>\n\t\t\t</array>",
      with: "\t\t\t<key>UIDsUnknown</key>\n\t\t\t<true/>")
    #expect(unknown != edited)
    try Data(unknown.utf8).write(to: URL(fileURLWithPath: e2e.tpns.store))
    func checkUnknown() throws {
      let status = try e2e.tpns.run(["status"])
      #expect(status.status == 0, "\(status.stderr)")
      #expect(
        status.stdout.contains(
          "pending     yes: the server's list is unknown (tpns sync repairs it)\n"),
        "\(status.stdout)")
      #expect(!status.stdout.contains("to add"))
      let json = try Self.document(try e2e.tpns.run(["status", "--json"]).stdout)
      #expect(json["pending"] as? Bool == true)
      for key in ["to_add", "to_remove", "to_update", "acknowledged_uids"] {
        #expect(json[key] is NSNull, "\(key): \(String(describing: json[key]))")
      }
    }
    try checkUnknown()
    // A write that sends nothing keeps it unknown.
    #expect(try e2e.tpns.run(["add", "--no-sync", "CCCCCCCCCCCCCCCCCCCC"]).status == 0)
    try checkUnknown()
    #expect(try e2e.tpns.run(["sync"]).status == 0)
    let status = try e2e.tpns.run(["status"])
    #expect(status.stdout.contains("pending     no, the server has the list\n"))
    #expect(try e2e.replicaMatchesStore())
  }

  @Test("a response in --json is the server's body without its closing newline")
  func responseWithoutNewline() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["register", EndToEnd.token, "--json"])
    #expect(result.status == 0)
    let outcomes = try Self.document(result.stdout)["outcomes"] as? [[String: Any]] ?? []
    let responses = outcomes.compactMap { $0["response"] as? String }
    #expect(!responses.isEmpty)
    for response in responses {
      #expect(!response.hasSuffix("\n") && !response.isEmpty, "\(response.debugDescription)")
    }
  }

  @Test(
    "unregister --uid of a UID the server does not map says what the server said, not 'unmapped'")
  func unregisterOfUnmappedUID() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    // Stored, never sent.
    #expect(try e2e.tpns.run(["add", "--no-sync", Self.a]).status == 0)
    let result = try e2e.tpns.run(["unregister", "--uid", Self.a])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == "removed 0  \(Self.a)\nsent unreg_mapping of \(Self.a) to \(e2e.server.server): "
        + "200 ok: unregistered successfully. \(Self.a) was not mapped\n"
    )
  }

  @Test("a store made read-only is refused with the reason (73) and left as it was, not replaced")
  func readOnlyStore() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["add", "--no-sync", Self.a]).status == 0)
    #expect(chmod(e2e.tpns.store, 0o400) == 0)
    let before = contents(of: e2e.tpns.store)
    let result = try e2e.tpns.run(["add", "--no-sync", Self.b])
    #expect(result.status == 73)
    #expect(
      result.stderr
        == "Error: the store \(e2e.tpns.store) is read-only (mode 0400): tpns does not replace a "
        + "file you made read-only\n"
        + "Nothing was stored; run 'chmod u+w \(e2e.tpns.store)' to let tpns change it, or pass "
        + "another path with --store.\n")
    #expect(permissions(of: e2e.tpns.store) == 0o400)
    #expect(contents(of: e2e.tpns.store) == before)
    // Reading it is fine.
    #expect(try e2e.tpns.run(["list"]).stdout.contains(Self.a))
  }

  @Test(
    "a --cacert file that is no PEM file is bad data (65), naming the file, before anything is sent"
  )
  func junkCACertificate() throws {
    let e2e = try EndToEnd()
    let junk = e2e.directory.file("junk.pem")
    try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: junk))
    let result = try e2e.tpns.run(["register", EndToEnd.token, "--cacert", junk])
    #expect(result.status == 65)
    #expect(
      result.stderrWithoutWarnings
        == "Error: the CA certificate file \(junk) is not a PEM file: it holds no "
        + "'-----BEGIN CERTIFICATE-----' line\n"
        + "Pass a readable PEM file of CA certificates with --cacert or TPNS_CACERT.\n")
    #expect(try e2e.server.requests().isEmpty)
  }

  @Test(
    "mapping --no-interval sends what its help says: a mapsync without the UID, the mapping, and a mapsync only to put a UID back in its place"
  )
  func mappingClearingASetting() throws {
    #expect(
      Mapping.configuration.discussion.contains(
        "a UID that is not last in the stored list is put back in its place by one more mapsync"))
    for (uid, expected) in [
      (Self.a, ["mapsync", "mapping", "mapsync"]), (Self.c, ["mapsync", "mapping"]),
    ] {
      let e2e = try EndToEnd()
      #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
      #expect(try e2e.tpns.run(["add", Self.a, Self.b, Self.c]).status == 0)
      #expect(try e2e.tpns.run(["mapping", uid, "--interval", "30"]).status == 0)
      let before = try e2e.server.requests().count
      #expect(try e2e.tpns.run(["mapping", uid, "--no-interval"]).status == 0)
      let commands = try e2e.server.requests().dropFirst(before).map {
        $0.raw.split(separator: "&").first.map(String.init) ?? ""
      }
      #expect(commands == expected.map { "cmd=\($0)" }, "\(uid)")
      #expect(try e2e.replicaMatchesStore())
    }
  }
}
