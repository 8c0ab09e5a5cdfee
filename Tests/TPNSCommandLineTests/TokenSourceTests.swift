import Foundation
import TPNSTestSupport
import Testing

/// A token on the command line is readable by every local
/// user. `register` takes it from a file, standard input or `TPNS_TOKEN`,
/// and warns when it came as an argument.
@Suite struct TokenSourceTests {
  static let token = EndToEnd.token
  static let warning =
    "the token was given on the command line, where every local user can read it "
    + "(ps, /proc/PID/cmdline) and shell history keeps it; pass it with --token-file FILE, "
    + "--token-file - (standard input) or TPNS_TOKEN instead"

  /// Whether the emulator registered `token` as an iOS phone.
  static func registered(_ e2e: EndToEnd) throws -> Bool {
    try e2e.server.requests().last?.raw.contains("&token=\(token)") == true
      && e2e.server.requests().last?.status == 200
  }

  @Test(
    "--token-file FILE registers the token in it (white space around it trimmed), without a warning"
  )
  func tokenFile() throws {
    let e2e = try EndToEnd()
    let file = e2e.directory.file("token")
    try "  \(Self.token)\r\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(chmod(file, 0o600) == 0)
    let result = try e2e.tpns.run(["register", "--token-file", file])
    #expect(
      result
        == .init(
          status: 0, stdout: "registered …0f0f0f at \(e2e.server.server)\n", stderr: ""))
    #expect(try Self.registered(e2e))
  }

  @Test("a token file that starts with a UTF-8 byte-order mark (a Windows editor's) is read")
  func tokenFileWithBOM() throws {
    let e2e = try EndToEnd()
    let file = e2e.directory.file("token")
    try Data([0xEF, 0xBB, 0xBF] + Array("\(Self.token)\r\n".utf8)).write(
      to: URL(fileURLWithPath: file))
    #expect(chmod(file, 0o600) == 0)
    let result = try e2e.tpns.run(["register", "--token-file", file])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Self.registered(e2e))
  }

  @Test("--token-file - reads standard input")
  func tokenFromStandardInput() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["register", "--token-file", "-"], input: Self.token + "\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(try Self.registered(e2e))
  }

  @Test("TPNS_TOKEN registers without a warning")
  func tokenFromEnvironment() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["register"], environment: ["TPNS_TOKEN": Self.token])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(try Self.registered(e2e))
  }

  @Test("a token on the command line is still accepted, with a warning on stderr and in --json")
  func tokenArgumentWarned() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["register", Self.token])
    #expect(result.status == 0)
    #expect(result.stderr == "Warning: \(Self.warning)\n")
    let json = try e2e.tpns.run(["register", Self.token, "--json"])
    #expect(json.status == 0)
    let document = try JSONDocumentTests.document(json.stdout)
    #expect(document["warnings"] as? [String] == [Self.warning])
    #expect(json.stderr == "Warning: \(Self.warning)\n")
  }

  @Test("the argument wins over TPNS_TOKEN (and is warned about); the token file over TPNS_TOKEN")
  func precedence() throws {
    let e2e = try EndToEnd()
    let other = String(repeating: "1e", count: 32)
    var result = try e2e.tpns.run(["register", Self.token], environment: ["TPNS_TOKEN": other])
    #expect(result.status == 0)
    #expect(result.stderr == "Warning: \(Self.warning)\n")
    #expect(try Self.registered(e2e))
    let file = e2e.directory.file("token")
    try Self.token.write(toFile: file, atomically: true, encoding: .utf8)
    #expect(chmod(file, 0o600) == 0)
    result = try e2e.tpns.run(
      ["register", "--token-file", file], environment: ["TPNS_TOKEN": other])
    #expect(result.status == 0)
    #expect(try Self.registered(e2e))
  }

  @Test(
    "no token, or a token both as <token> and --token-file, is a usage error (64) naming the ways to give it",
    arguments: [
      ([], "Missing expected argument '<token>' (or --token-file, or TPNS_TOKEN)"),
      (
        [Self.token, "--token-file", "/dev/null"],
        "Give the token once: as <token> or with --token-file, not both"
      ),
    ] as [([String], String)])
  func usage(arguments: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let result = try tpns.run(["register"] + arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: \(message)\nUsage: tpns register "), "\(result.stderr)")
    #expect(contents(of: tpns.store) == nil)
  }

  @Test("a token file that cannot be read is 66; one larger than any token 65; nothing stored")
  func badTokenFile() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    var result = try tpns.run(["register", "--token-file", "/nonexistent/token"])
    #expect(result.status == 66)
    #expect(
      result.stderr
        == "Error: cannot read the token file /nonexistent/token: No such file or directory\n"
        + "Check the path and its permissions, or pass '-' to read standard input.\n")
    result = try tpns.run(["register", "--token-file", "/dev/zero"])
    #expect(result.status == 65)
    #expect(
      result.stderr.hasPrefix(
        "Error: the token file /dev/zero is larger than 16384 bytes: it holds no token\n"))
    result = try tpns.run(["register", "--token-file", "-"], input: "\n")
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("Error: invalid token: the iOS token is empty\n"))
    #expect(contents(of: tpns.store) == nil)
  }
}
