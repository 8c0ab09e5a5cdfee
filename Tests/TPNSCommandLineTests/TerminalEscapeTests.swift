import Foundation
import TPNSTestSupport
import Testing

/// Terminal injection. What a server, a file or the store
/// says is printed with its control characters escaped (`\u{1b}`), so that it
/// cannot retitle the window, clear the screen or forge a line; `--json`
/// keeps it as it is (its encoder escapes). (The token is given as an
/// argument, which the code before the fix also took.)
@Suite struct TerminalEscapeTests {
  static let token = EndToEnd.token
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  /// A window title, a screen clear, a bare CR and a newline that forge an
  /// `Error:` line, a C1 CSI.
  static let hostile = "bad\u{1B}]0;pwned\u{07}\u{1B}[2J\rError: forged\nline\u{9B}31m"
  /// `hostile` as output shows it.
  static let escaped = "bad\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{d}Error: forged\\u{a}line\\u{9b}31m"

  /// Whether `text` holds no control character but the newlines between lines.
  static func isTerminalSafe(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy {
      $0 == "\n" || ($0.value >= 0x20 && !(0x7F...0x9F).contains($0.value))
    }
  }

  @Test("a server's error body is shown escaped, on one line")
  func errorBody() throws {
    let server = try ScriptedServer(status: 400, body: Self.hostile)
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "\(server.base)/tpns")
    let result = try tpns.run(["register", Self.token])
    #expect(result.status == 76)
    #expect(
      result.stderrWithoutWarnings
        == "Error: the server rejected the token …0f0f0f: the server answered 400: \(Self.escaped); "
        + "it stays stored, not acknowledged\nCheck the token and --os, --appid, --udid.\n")
  }

  @Test("a retry's reason quoting a server's body is shown escaped")
  func retryReason() throws {
    let server = try ScriptedServer(status: 503, body: Self.hostile)
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "\(server.base)/tpns")
    let result = try tpns.run(["register", Self.token, "--timeout", "3"])
    #expect(result.status == 75)
    #expect(result.stderr.contains("): client: the server answered 503: \(Self.escaped)\n"))
    #expect(Self.isTerminalSafe(result.stderr), "\(result.stderr.debugDescription)")
  }

  @Test("an event's answer is shown escaped; --json keeps it as the server sent it")
  func eventAnswer() throws {
    let server = try ScriptedServer(status: 200, body: Self.hostile)
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "\(server.base)/tpns")
    let result = try tpns.run(["event", Self.a])
    #expect(result == .init(status: 0, stdout: "sent event: \(Self.escaped)\n", stderr: ""))
    let json = try tpns.run(["event", Self.a, "--json"])
    let document = try JSONDocumentTests.document(json.stdout)
    let outcomes = document["outcomes"] as? [[String: Any]]
    #expect(outcomes?.first?["response"] as? String == Self.hostile)
  }

  @Test(
    "a UID as typed, a file name, a file's line and an option as typed are shown escaped in errors",
    arguments: [
      (["add", "AB\u{1B}[2J"], Int32(65), "Error: invalid UID 'AB\\u{1b}[2J': "),
      (
        ["add", "--from", "/nonexistent/\u{1B}]0;x\u{07}"], 66,
        "Error: cannot read /nonexistent/\\u{1b}]0;x\\u{7}: "
      ),
      (["add", "--from", "-"], 65, "Error: invalid UID '\\u{1b}[2Jx\\u{d}Y' at <stdin>:2: "),
      (
        ["add", Self.a, "--server", "http://x/\u{1B}]0;pwned\u{07}"], 64,
        "Error: The value 'http://x/\\u{1b}]0;pwned\\u{7}' is invalid for '--server <url>': "
          + "it must be an http:// or https:// URL with a host (and a port from 0 to 65535, if any)\n"
      ),
      (["add", "--fr\u{1B}[2Jom", "-"], 64, "Error: Unknown option '--fr\\u{1b}[2Jom'"),
      (
        ["add", "--fr\u{202E}om\u{2028}", "-"], 64,
        "Error: Unknown option '--fr\\u{202e}om\\u{2028}'"
      ),
    ] as [([String], Int32, String)])
  func userInput(arguments: [String], status: Int32, error: String) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let result = try tpns.run(arguments, input: "# UIDs\n\u{1B}[2Jx\rY\n")
    #expect(result.status == status)
    #expect(result.stderr.hasPrefix(error), "\(result.stderr.debugDescription)")
    #expect(Self.isTerminalSafe(result.stderr))
  }

  @Test("an error quoting a file's text is escaped in --json's errors as in text output")
  func jsonErrorEscaped() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let file = directory.file("import.plist")
    try Data(
      "<plist><dict><key>UIDs</key><array><string>AB\u{9B}31mCD\u{202E}EF</string></array></dict></plist>"
        .utf8
    ).write(to: URL(fileURLWithPath: file))
    let result = try tpns.run(["import", "--json", file])
    #expect(result.status == 65)
    let document = try JSONDocumentTests.document(result.stdout)
    let error = try #require((document["errors"] as? [String])?.first)
    #expect(error.contains("AB\\u{9b}31mCD\\u{202e}EF"), "\(error.debugDescription)")
    let outcomes = try #require(document["outcomes"] as? [[String: Any]])
    #expect(outcomes.map { $0["error"] as? String } == [error])
  }

  @Test("a string of the store (a hand-edited server) is shown escaped by status")
  func storeString() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", Self.token]).status == 0)
    let text = String(decoding: contents(of: e2e.tpns.store) ?? Data(), as: UTF8.self)
    // C1's CSI and a bidirectional override: characters XML allows (ESC it does not).
    let edited = text.replacingOccurrences(
      of: "<key>\(e2e.server.server)</key>",
      with: "<key>http://x\u{9B}0;pwned\u{202E}&#13;registered  yes</key>")
    #expect(edited != text)
    try edited.write(toFile: e2e.tpns.store, atomically: true, encoding: .utf8)
    let result = try e2e.tpns.run(["status"])
    #expect(result.status == 0)
    #expect(
      result.stdout.contains(
        "\nregistered  no (acknowledged at http://x\\u{9b}0;pwned\\u{202e}\\u{d}registered  yes/, "
          + "not here)\n"), "\(result.stdout.debugDescription)")
    #expect(Self.isTerminalSafe(result.stdout))
  }
}
