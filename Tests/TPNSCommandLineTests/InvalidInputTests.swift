import Foundation
import TPNSTestSupport
import Testing

/// A UID, a token or a missing udid is decided by the pipeline alone (issue
/// 15, part 2): the commands print the same messages and exit statuses as
/// when each checked its own, and nothing is stored or sent.
@Suite struct InvalidInputTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  /// A server nothing listens on: these commands must fail before any request.
  static let server = "http://127.0.0.1:1/tpns"
  static let ampersand =
    "character '&' at position 4 is not allowed in a UID (only A-Z and 0-9)"
  static let uidHint = "A UID is 20 characters of A-Z and 0-9, as printed on the device."

  @Test(
    "an invalid UID is refused (65) before the store is read: a store that does not parse is left alone, not reported",
    arguments: [
      ["add", "BAD&UID"], ["add", "--no-sync", a, "BAD&UID"], ["mapping", "BAD&UID"],
      ["rm-mapping", "BAD&UID"], ["unregister", "--uid", a, "--uid", "BAD&UID"],
    ])
  func uidBeforeStore(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    try Data("not a store".utf8).write(to: URL(fileURLWithPath: tpns.store))
    // As tpns writes it: one others may read is warned about.
    #expect(chmod(tpns.store, 0o600) == 0)
    let result = try tpns.run(arguments)
    #expect(result.status == 65)
    #expect(result.stderr == "Error: invalid UID 'BAD&UID': \(Self.ampersand)\n\(Self.uidHint)\n")
    #expect(result.stdout == "")
    #expect(contents(of: tpns.store) == Data("not a store".utf8))
  }

  @Test(
    "a token that is not valid (65) or an Android phone without --udid (64) stores nothing",
    arguments: [
      (["register", "abc"], Int32(65), "Error: invalid token: "),
      (
        ["register", "--os", "android", "fcm:token"], 64,
        "Error: an Android phone needs its own ID: pass --udid\n"
          + "Pass the phone's own ID with --udid.\n"
      ),
    ] as [([String], Int32, String)])
  func token(arguments: [String], status: Int32, stderr: String) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    let result = try tpns.run(arguments)
    #expect(result.status == status)
    #expect(result.stderrWithoutWarnings.hasPrefix(stderr), "\(result.stderr)")
    #expect(contents(of: tpns.store) == nil)
  }

  @Test(
    "--json: a file's invalid line is the document's one failed outcome and error, naming the line, with the stored list"
  )
  func fileLineDocument() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    #expect(try tpns.run(["add", "--no-sync", Self.a]).status == 0)
    let stored = contents(of: tpns.store)
    let file = directory.file("uids.txt")
    try Data("# devices\nBAD&UID\n".utf8).write(to: URL(fileURLWithPath: file))
    let result = try tpns.run(["add", "--from", file, "--json"])
    #expect(result.status == 65)
    let message = "invalid UID 'BAD&UID' at \(file):2: \(Self.ampersand)"
    #expect(result.stderr == "Error: \(message)\n\(Self.uidHint)\n")
    let document =
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    #expect(document["errors"] as? [String] == [message])
    let outcomes = document["outcomes"] as? [[String: String]]
    #expect(outcomes == [["event": "failed", "error": message]])
    #expect(document["exit_code"] as? Int == 65)
    #expect(document["hint"] as? String == Self.uidHint)
    #expect(document["uids"] as? [String] == [Self.a])
    #expect(contents(of: tpns.store) == stored)
  }
}
