import Foundation
import TPNSTestSupport
import Testing

/// The token in clear. A token sent over http:// to
/// another machine is warned about (and refused with --require-https); a
/// loopback server is reached directly, never through a proxy; `--method
/// get` does not put the token in a URL unless asked to. (The token is
/// given as an argument, which the code before the fix also took: its
/// warning is left out where another one is looked at.)
@Suite struct CleartextTests {
  static let token = EndToEnd.token
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  /// A server off this machine, reached through a proxy (no DNS needed: the proxy is asked).
  static let remote = "http://tpns.example/tpns"

  /// The warning for `remote` reached through `proxy` as `http_proxy`.
  static func warning(proxy: ScriptedServer) -> String {
    "the push token goes unencrypted (http://) to tpns.example, where anyone on the network "
      + "path can read it, and so does the proxy in http_proxy (\(proxy.base)); use an "
      + "https:// server (--require-https refuses http://)"
  }

  @Test(
    "a token sent over http:// off this machine is warned about once on stderr, naming the proxy that reads it"
  )
  func cleartextWarning() throws {
    let proxy = try ScriptedServer()
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.remote)
    let result = try tpns.run(["register", Self.token], environment: ["http_proxy": proxy.base])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "registered …0f0f0f at \(Self.remote)\n")
    #expect(result.stderrWithoutWarnings == "")
    #expect(result.stderr.hasSuffix("Warning: \(Self.warning(proxy: proxy))\n"))
    #expect(result.stderr.components(separatedBy: "unencrypted").count == 2)
    // What the warning is about: the proxy got the token as sent.
    #expect(proxy.requests.count == 1)
    #expect(proxy.requests.first?.hasPrefix("POST \(Self.remote) HTTP/1.1\r\n") == true)
    #expect(proxy.requests.first?.contains("&token=\(Self.token)") == true)
  }

  @Test("--json has the warning in its warnings: a mapsync carries an iOS phone's udid, its token")
  func cleartextWarningInJSON() throws {
    let proxy = try ScriptedServer()
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.remote)
    let environment = ["http_proxy": proxy.base]
    #expect(try tpns.run(["register", Self.token], environment: environment).status == 0)
    let result = try tpns.run(["add", Self.a, "--json"], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    let document = try JSONDocumentTests.document(result.stdout)
    #expect(document["warnings"] as? [String] == [Self.warning(proxy: proxy)])
    #expect(result.stderr == "Warning: \(Self.warning(proxy: proxy))\n")
    #expect(proxy.requests.last?.contains("cmd=mapsync&os=ios&appid=") == true)
    #expect(proxy.requests.last?.contains("&udid=\(Self.token)&") == true)
  }

  @Test(
    "watch --json prints the warning as a line, before the sync that carries the token",
    .timeLimit(.minutes(1)))
  func watchWarningLine() throws {
    let proxy = try ScriptedServer()
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.remote)
    let environment = ["http_proxy": proxy.base]
    #expect(try tpns.run(["register", Self.token], environment: environment).status == 0)
    let output = directory.file("watch.out")
    let watch = try WatchTests.startWatch(
      tpns, ["--json", "--debounce", "20"], output: output, environment: environment)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(WatchTests.holdsLock(watch, of: tpns.store))
    #expect(try tpns.run(["add", "--no-sync", Self.a]).status == 0)
    func events() throws -> [[String: Any]] {
      try String(decoding: contents(of: output) ?? Data(), as: UTF8.self).split(separator: "\n")
        .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
    }
    #expect(
      try WatchTests.eventually(within: .seconds(10)) {
        try events().contains { $0["event"] as? String == "synced" }
      })
    #expect(WatchTests.stop(watch, with: SIGTERM))
    let all = try events()
    #expect(all.map { $0["event"] as? String } == ["started", "warning", "synced"])
    #expect(all.dropFirst().first?["message"] as? String == Self.warning(proxy: proxy))
    #expect(all.dropFirst().first?["time"] is String)
  }

  @Test("an event (no token) over http:// is not warned about")
  func eventNotWarned() throws {
    let proxy = try ScriptedServer()
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.remote)
    let result = try tpns.run(["event", Self.a], environment: ["http_proxy": proxy.base])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
  }

  @Test(
    "a loopback server is reached directly, not through http_proxy or all_proxy, and without a warning",
    arguments: ["http_proxy", "all_proxy", "ALL_PROXY"])
  func loopbackBypassesProxy(variable: String) throws {
    let proxy = try ScriptedServer()
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["register", Self.token], environment: [variable: proxy.base])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderrWithoutWarnings == "")
    #expect(!result.stderr.contains("unencrypted"))
    #expect(proxy.requests.isEmpty)
    #expect(try e2e.server.requests().count == 1)
  }

  @Test(
    "--require-https and TPNS_REQUIRE_HTTPS=1 refuse an http:// server off this machine: 64, nothing stored or sent",
    arguments: [
      (["register", Self.token, "--require-https"], [:]),
      (["register", Self.token], ["TPNS_REQUIRE_HTTPS": "1"]),
      (["add", Self.a, "--require-https"], [:]),
      (["event", Self.a], ["TPNS_REQUIRE_HTTPS": "yes"]),
    ] as [([String], [String: String])])
  func requireHTTPS(arguments: [String], environment: [String: String]) throws {
    let proxy = try ScriptedServer()
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.remote)
    let result = try tpns.run(
      arguments,
      environment: environment.merging(["http_proxy": proxy.base]) { $1 })
    #expect(result.status == 64)
    #expect(
      result.stderrWithoutWarnings.hasPrefix(
        "Error: \(Self.remote) is not https://, and --require-https (or TPNS_REQUIRE_HTTPS) "
          + "refuses an http:// server that is not on this machine: the token would cross the "
          + "network unencrypted\nUsage: tpns \(arguments[0]) "), "\(result.stderr)")
    #expect(proxy.requests.isEmpty)
    #expect(contents(of: tpns.store) == nil)
  }

  @Test("--require-https lets a loopback http:// server through")
  func requireHTTPSLoopback() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["register", Self.token, "--require-https"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try e2e.server.requests().count == 1)
  }

  @Test("TPNS_REQUIRE_HTTPS with a value that is not 1 or 0 is a usage error")
  func requireHTTPSValue() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(
      ["sync"], environment: ["TPNS_REQUIRE_HTTPS": "maybe"])
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "Error: TPNS_REQUIRE_HTTPS must be 1, true, yes or on (or 0, false, no, off or empty), got \"maybe\"\n"
      ))
  }

  @Test(
    "--method get is refused where the token may go in the URL (every command that reconciles): 64, nothing sent",
    arguments: [["register", Self.token], ["add", Self.a], ["remove", "0"], ["sync"], ["watch"]])
  func getRefused(arguments: [String]) throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["add", Self.a]).status == 0)
    #expect(try e2e.tpns.run(["register", Self.token]).status == 0)
    let store = contents(of: e2e.tpns.store)
    let requests = try e2e.server.requests().count
    let result = try e2e.tpns.run(arguments + ["--method", "get"], timeout: .seconds(30))
    #expect(result.status == 64)
    #expect(
      result.stderrWithoutWarnings.hasPrefix(
        "Error: --method get would put the push token in the URL, where proxies and access logs "
          + "keep it: use --method post (the default), or add --allow-token-in-url\n"),
      "\(result.stderr)")
    #expect(try e2e.server.requests().count == requests)
    #expect(contents(of: e2e.tpns.store) == store)
  }

  @Test(
    "--method get --allow-token-in-url sends the token in the query, as asked; an event needs no flag"
  )
  func getAllowed() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(
      ["register", "--method", "get", "--allow-token-in-url"],
      environment: ["TPNS_TOKEN": Self.token])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try e2e.server.requests().last?.method == "GET")
    #expect(try e2e.tpns.run(["event", Self.a, "--method", "get"]).status == 0)
    #expect(try e2e.server.requests().last?.method == "GET")
  }
}
