import Foundation
import TPNSEmulator
import TPNSTestSupport
import Testing

/// `--json` prints one document for every outcome, failures before the
/// command could run included, and every error has its next step.
@Suite struct JSONDocumentTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"

  /// The one JSON object `text` holds (one line and a newline).
  static func document(_ text: String) throws -> [String: Any] {
    #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1, "\(text)")
    return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
  }

  @Test(
    "a failure prints a document with the command, the exit status, the error and the next step",
    arguments: [
      (["add", "--frobnicate"], Int32(64), "add", "Unknown option '--frobnicate'"),
      (["lst"], 64, nil, "Unknown command 'lst'. Did you mean 'list'?"),
      (["remove"], 64, "remove", "Missing expected argument '<index>'"),
      (["add", "--from", "/nonexistent/uids.txt"], 66, "add", "cannot read /nonexistent/uids.txt"),
      (["sync", "--cacert", "/missing.pem"], 66, "sync", "cannot read the CA certificate file"),
      (["remove", "abc"], 65, "remove", "invalid index 'abc'"),
      (["register", "1234"], 65, "register", "invalid token"),
      (["event", "short"], 65, "event", "invalid UID 'short'"),
      (
        ["register", "--os", "android", "abc"], 64, "register", "an Android phone needs its own ID"
      ),
    ] as [([String], Int32, String?, String)])
  func failure(arguments: [String], status: Int32, command: String?, error: String) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let result = try tpns.run(arguments + ["--json"])
    #expect(result.status == status)
    let document = try Self.document(result.stdout)
    #expect(document["command"] as? String == command)
    #expect(document["ok"] as? Bool == false)
    #expect(document["exit_code"] as? Int == Int(status))
    let errors = document["errors"] as? [String] ?? []
    #expect(errors.count == 1 && errors[0].hasPrefix(error), "\(errors)")
    let hint = try #require(document["hint"] as? String)
    // stderr: the error, then the next step (for a usage error, the usage and the pointer to --help).
    let lines = result.stderrWithoutWarnings.split(separator: "\n").map(String.init)
    #expect(lines.first == "Error: \(errors[0])")
    #expect(lines.last == hint || lines.last == "  \(hint)")
  }

  @Test("the watch lock held: the document names it, with the next step")
  func watchLockHeld() throws {
    let directory = try TemporaryDirectory()
    let down = try SilentListener(listening: false)
    let tpns = TPNSProcess(
      store: directory.file("state.plist"), server: "http://127.0.0.1:\(down.port)/tpns")
    let watch = try WatchTests.startWatch(tpns)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(WatchTests.holdsLock(watch, of: tpns.store))
    let result = try tpns.run(["watch", "--json"], timeout: .seconds(20))
    #expect(result.status == 75)
    let document = try Self.document(result.stdout)
    #expect(document["command"] as? String == "watch")
    #expect(document["exit_code"] as? Int == 75)
    #expect(document["hint"] as? String == "Stop it first, or watch another store with --store.")
  }

  @Test("success: the document's hint is null and its errors empty")
  func success() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["add", Self.a, "--json"])
    #expect(result.status == 0)
    let document = try Self.document(result.stdout)
    #expect(document["ok"] as? Bool == true)
    #expect(document["errors"] as? [String] == [])
    #expect(document["hint"] is NSNull)
    #expect(document["next"] as? String == "tpns register --token-file FILE")
  }

  @Test("a failed request: the document carries the outcomes, the error and its next step")
  func requestFailure() throws {
    let down = try SilentListener(listening: false)
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(
      store: directory.file("state.plist"), server: "http://127.0.0.1:\(down.port)/tpns")
    let result = try tpns.run(["register", String(repeating: "0f", count: 32), "--json"])
    #expect(result.status == 69)
    let document = try Self.document(result.stdout)
    #expect(document["exit_code"] as? Int == 69)
    #expect(
      document["hint"] as? String
        == "The change is stored and pending (this server has not acknowledged the registration); "
        + "run 'tpns sync' once it answers.")
    #expect(result.stderr.hasSuffix("\(document["hint"] as? String ?? "")\n"))
  }
}
