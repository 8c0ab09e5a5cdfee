import Foundation
import TPNSTestSupport
import Testing

/// What leaks in output. A server URL's credentials and
/// query values are never printed (and the credentials never stored); a
/// server's answer that echoes the token shows it masked. (The token is
/// given as an argument, which the code before the fix also took.)
@Suite struct RedactionTests {
  static let token = EndToEnd.token
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let password = "s3cretPW"

  /// `server` with `alice:PASSWORD@` before its host.
  static func withCredentials(_ server: String) -> String {
    server.replacingOccurrences(of: "http://", with: "http://alice:\(password)@")
  }

  @Test(
    "a usage error quoting a token typed in the wrong place shows it masked, unless --show-token",
    arguments: [
      ["register", "--udid", "!\(token)"], ["list", "--\(token)"], [token],
      ["add", "--interval", token], ["register", "--os", token], ["list", "--json", "--\(token)"],
    ])
  func usageErrorMasked(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let masked = try tpns.run(arguments)
    #expect(masked.status == 64 || masked.status == 65, "\(masked.stderr)")
    #expect(!(masked.stderr + masked.stdout).contains(Self.token), "\(masked.stderr)")
    #expect((masked.stderr + masked.stdout).contains("…" + Self.token.suffix(6)))
    let shown = try tpns.run(arguments + ["--show-token"])
    #expect((shown.stderr + shown.stdout).contains(Self.token), "\(shown.stderr)")
  }

  @Test(
    "a server URL's credentials never show (lines, -v, status, --json, errors) and never reach the store"
  )
  func credentials() throws {
    let e2e = try EndToEnd(persistentRegistry: true)
    let server = Self.withCredentials(e2e.server.server)
    let shown = e2e.server.server.replacingOccurrences(of: "http://", with: "http://***@")
    let environment = ["TPNS_SERVER": server]
    var outputs: [String] = []
    func run(_ arguments: [String]) throws -> TPNSProcess.Result {
      let result = try e2e.tpns.run(arguments, environment: environment)
      outputs += [result.stdout, result.stderr]
      return result
    }
    let registered = try run(["register", Self.token, "-v"])
    #expect(registered.status == 0, "\(registered.stderr)")
    #expect(registered.stdout == "registered …0f0f0f at \(shown)\n")
    #expect(
      registered.stderrWithoutWarnings.hasPrefix("> POST \(shown) (cmd=client)\n< 200 after "))
    let status = try run(["status"])
    #expect(status.stdout.hasPrefix("server      \(shown)\n"))
    #expect(status.stdout.contains("registered  yes\n"))
    let json = try JSONDocumentTests.document(try run(["status", "--json"]).stdout)
    #expect(json["server"] as? String == shown)
    #expect(json["registered_servers"] as? [String] == [e2e.server.server])
    let added = try JSONDocumentTests.document(try run(["add", Self.a, "--json"]).stdout)
    #expect(added["server"] as? String == shown)
    e2e.server.emulator.stop()
    let down = try run(["sync", "--timeout", "1"])
    #expect(down.status == 69)
    #expect(down.stderr.contains("cannot reach \(shown): "), "\(down.stderr)")
    #expect(outputs.allSatisfy { !$0.contains(Self.password) })
    // The store keys the server by its URL without the credentials.
    let store = String(decoding: contents(of: e2e.tpns.store) ?? Data(), as: UTF8.self)
    #expect(!store.contains(Self.password))
    #expect(
      try StoreFile(path: e2e.tpns.store).acknowledged(at: e2e.server.server).registration != nil)
  }

  @Test("a server URL's query values are sent as given and shown as ***")
  func queryValues() throws {
    let server = try ScriptedServer()
    let url = "\(server.base)/tpns?key=\(Self.password)"
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: url)
    let result = try tpns.run(["register", Self.token, "-v"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "registered …0f0f0f at \(server.base)/tpns?key=***\n")
    #expect(
      result.stderrWithoutWarnings.hasPrefix("> POST \(server.base)/tpns?key=*** (cmd=client)\n"))
    #expect(!(result.stdout + result.stderr).contains(Self.password))
    #expect(server.requests.first?.hasPrefix("POST /tpns?key=\(Self.password) HTTP/1.1") == true)
  }

  /// A rejection that quotes the token, the way a server's error might, and
  /// part of it (as the emulator's `not registered` does).
  static let echo =
    "error: token \(token) is not valid for udid '\(token.prefix(24))…'"

  @Test(
    "a server's answer that echoes the token shows it masked, on stderr and in --json; --show-token shows it"
  )
  func echoedToken() throws {
    let server = try ScriptedServer(status: 400, body: Self.echo)
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "\(server.base)/tpns")
    let result = try tpns.run(["register", Self.token])
    #expect(result.status == 76)
    #expect(
      result.stderrWithoutWarnings.hasPrefix(
        "Error: the server rejected the token …0f0f0f: the server answered 400: "
          + "error: token …0f0f0f is not valid for udid '…0f0f0f…'; "), "\(result.stderr)")
    let json = try tpns.run(["register", Self.token, "--json"])
    #expect(!json.stdout.contains(String(Self.token.prefix(24))))
    let document = try JSONDocumentTests.document(json.stdout)
    #expect((document["errors"] as? [String])?.first?.contains("error: token …0f0f0f is") == true)
    let shown = try tpns.run(["register", Self.token, "--show-token"])
    #expect(shown.stderr.contains(Self.echo))
  }

  @Test("an echoed Android token (not hex) is masked too, as a token the command knows")
  func echoedAndroidToken() throws {
    let token = "fcm:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"
    let server = try ScriptedServer(status: 400, body: "error: unknown token \(token)")
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "\(server.base)/tpns")
    let result = try tpns.run(["register", "--os", "android", "--udid", "phone-1", token])
    #expect(result.status == 76)
    #expect(!result.stderr.contains(token), "\(result.stderr)")
    #expect(result.stderr.contains("error: unknown token …-1RYqx"))
  }

  /// An FCM token as long as a real one (152 characters).
  static let fcmToken =
    "fcm:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqxJ7Yd9Xq2W_kL0pNnRsTuVwXyZ0a1b2c3d4e5f6g7h8i9j0kL"
    + "mNoPqRsTuVwXyZ_ab-cd.ef:gh0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq"

  /// Whether `text` holds 12 characters in a row of `token`, in any case,
  /// percent-encoded or not, white space inside them skipped.
  static func leaks(_ token: String, in text: String) -> Bool {
    let folded = (text.removingPercentEncoding ?? text).lowercased()
      .filter { !$0.isWhitespace }
    let needle = Array(token.lowercased())
    return (0...(needle.count - 12)).contains { folded.contains(String(needle[$0..<($0 + 12)])) }
  }

  @Test(
    "a server's echo of part of a non-hex token, percent-encoded, in capitals or split by a line, is masked on stderr and in --json",
    arguments: [
      "error: unknown token \(fcmToken.prefix(60))",
      "error: unknown token \(fcmToken.prefix(74).replacingOccurrences(of: ":", with: "%3A"))",
      "error: unknown token \(fcmToken.dropFirst(20).prefix(70).uppercased())",
      "error: unknown token \(fcmToken.prefix(40))\n\(fcmToken.dropFirst(40).prefix(30))",
      "error: unknown token \(fcmToken.lowercased())",
    ])
  func echoedPartOfToken(body: String) throws {
    let server = try ScriptedServer(status: 400, body: body)
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "\(server.base)/tpns")
    #expect(Self.leaks(Self.fcmToken, in: body))
    let arguments = ["register", "--os", "android", "--udid", "phone-1", "--token-file", "-"]
    let result = try tpns.run(arguments, input: Self.fcmToken)
    #expect(result.status == 76)
    #expect(result.stderr.contains("error: unknown token …lmnopq"), "\(result.stderr)")
    #expect(!Self.leaks(Self.fcmToken, in: result.stdout + result.stderr), "\(result.stderr)")
    let json = try tpns.run(arguments + ["--json", "-v"], input: Self.fcmToken)
    #expect(json.status == 76)
    #expect(!Self.leaks(Self.fcmToken, in: json.stdout + json.stderr), "\(json.stdout)")
    #expect(json.stdout.contains("…lmnopq"))
    let shown = try tpns.run(arguments + ["--show-token"], input: Self.fcmToken)
    #expect(Self.leaks(Self.fcmToken, in: shown.stderr))
  }

  @Test(
    "a server's answer to mapping, rm-mapping and unregister that echoes the token is masked in text and --json",
    arguments: [["mapping", a], ["rm-mapping", a], ["unregister", "--uid", a]].flatMap { command in
      ["200 ok: \(token)\n", "422 not activated: \(token) \(a)\n"].map { (command, $0) }
    }, [false, true])
  func echoedTokenInSingleUIDAnswer(_ request: (command: [String], body: String), json: Bool)
    throws
  {
    let (command, body) = request
    let server = try ScriptedServer(status: 200, body: body)
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "\(server.base)/tpns")
    #expect(try tpns.run(["register", Self.token]).status == 0)
    #expect(try tpns.run(["add", "--no-sync", Self.a]).status == 0)
    let result = try tpns.run(command + (json ? ["--json"] : []))
    #expect(!Self.leaks(Self.token, in: result.stdout + result.stderr), "\(result.stdout)")
  }
}
