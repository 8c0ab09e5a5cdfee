import Foundation
import TPNSTestSupport
import Testing

/// `--verbose` shows each HTTP exchange; `watch` lines carry their time and
/// `watch --json` starts with a `started` event.
@Suite struct VerboseTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"

  /// `text` with every run of digits replaced by `N`.
  static func digitsMasked(_ text: String) -> String {
    var result = ""
    for character in text {
      if character.isASCII, character.isNumber {
        if !result.hasSuffix("N") { result.append("N") }
      } else {
        result.append(character)
      }
    }
    return result
  }

  @Test(
    "-v prints each request and its answer on stderr, as curl -v marks them; tokens masked",
    arguments: [["-v"], ["--verbose"]])
  func verbosePost(flag: [String]) throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["register"] + flag, environment: ["TPNS_TOKEN": EndToEnd.token])
    #expect(result.status == 0)
    #expect(result.stdout == "registered …0f0f0f at \(e2e.server.server)\n")
    let server = e2e.server.server
    #expect(
      result.stderr.hasPrefix("> POST \(server) (cmd=client)\n< 200 after ")
        && result.stderr.hasSuffix(" ms\n"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 2)
  }

  @Test("with GET, the token and the udid in the URL are masked unless --show-token")
  func verboseGet() throws {
    let e2e = try EndToEnd()
    let token = EndToEnd.token
    let masked = try e2e.tpns.run(
      ["register", "-v", "--method", "get", "--allow-token-in-url"],
      environment: ["TPNS_TOKEN": token])
    #expect(masked.status == 0)
    let query = "cmd=client&os=ios&appid=com.tutk.cc.samples.tpns.ios"
    #expect(
      masked.stderr.hasPrefix(
        "> GET \(e2e.server.server)?\(query)&udid=…0f0f0f&token=…0f0f0f&lang=enUS&dev=0 "
          + "(cmd=client)\n"))
    #expect(!masked.stderr.contains(token))
    let shown = try e2e.tpns.run([
      "sync", "-v", "--method", "get", "--allow-token-in-url", "--show-token",
    ])
    #expect(shown.status == 0)
    #expect(shown.stderr.contains("&udid=\(token)&"))
  }

  @Test("an attempt without an answer says why, and each retry is shown")
  func verboseUnreachable() throws {
    let directory = try TemporaryDirectory()
    let down = try SilentListener(listening: false)
    let tpns = TPNSProcess(
      store: directory.file("state.plist"), server: "http://127.0.0.1:\(down.port)/tpns")
    let result = try tpns.run(["register", EndToEnd.token, "-v", "--timeout", "2"])
    #expect(result.status == 69)
    let exchanges = result.stderr.split(separator: "\n").filter { $0.hasPrefix("< ") }
    #expect(exchanges.count >= 2, "\(result.stderr)")
    #expect(
      exchanges.allSatisfy {
        Self.digitsMasked(String($0)).hasPrefix(
          "< no response after N ms: cannot reach http://N.N.N.N:N/tpns")
      })
  }

  @Test("watch lines start with their time (ISO 8601, UTC)", .timeLimit(.minutes(1)))
  func watchTimestamps() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    let output = e2e.directory.file("watch.out")
    let watch = try WatchTests.startWatch(e2e.tpns, ["--debounce", "20"], output: output)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(WatchTests.holdsLock(watch, of: e2e.tpns.store))
    #expect(try e2e.tpns.run(["add", "--no-sync", Self.a]).status == 0)
    func lines() -> [String] {
      String(decoding: contents(of: output) ?? Data(), as: UTF8.self).split(separator: "\n")
        .map(String.init)
    }
    #expect(
      WatchTests.eventually(within: .seconds(10)) { lines().contains { $0.contains("synced") } })
    #expect(WatchTests.stop(watch, with: SIGTERM))
    let synced = lines().first { $0.contains("synced") } ?? ""
    #expect(
      Self.digitsMasked(synced) == "N-N-NTN:N:NZ synced N UID to http://N.N.N.N:N/tpns", "\(synced)"
    )
  }

  @Test(
    "watch --json starts with a started event: time, store, server, pid", .timeLimit(.minutes(1)))
  func watchStarted() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    let output = e2e.directory.file("watch.out")
    let watch = try WatchTests.startWatch(e2e.tpns, ["--json", "--debounce", "20"], output: output)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(WatchTests.holdsLock(watch, of: e2e.tpns.store))
    #expect(try e2e.tpns.run(["add", "--no-sync", Self.a]).status == 0)
    func events() throws -> [[String: Any]] {
      try String(decoding: contents(of: output) ?? Data(), as: UTF8.self).split(separator: "\n")
        .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
    }
    #expect(try WatchTests.eventually(within: .seconds(10)) { try events().count >= 2 })
    #expect(WatchTests.stop(watch, with: SIGTERM))
    let all = try events()
    let started = all.first ?? [:]
    #expect(started["event"] as? String == "started")
    #expect(started["store"] as? String == e2e.tpns.store)
    #expect(started["server"] as? String == e2e.server.server)
    #expect(started["pid"] as? Int == Int(watch.processIdentifier))
    #expect(all.dropFirst().first?["event"] as? String == "synced")
    let times = all.compactMap { $0["time"] as? String }
    #expect(times.count == all.count)
    #expect(times.allSatisfy { Self.digitsMasked($0) == "N-N-NTN:N:NZ" })
  }
}
