import Foundation
import TPNSEmulator
import TPNSTestSupport
import Testing

/// End to end: the client speaks the whole protocol. Every
/// `client` carries `lang` and `dev`; every documented `os` registers; per-UID
/// settings are stored, listed and sent in `mapsync` entries; `unregister`,
/// `mapping` and `rm-mapping` send their single-UID commands and keep the
/// store the source of truth. The checks hold whether the emulator warns about
/// or refuses (`--strict`) what it does not consider canonical: they read what
/// was sent and answered (the request log), the registry and the store, never
/// the warnings.
@Suite struct WholeProtocolEndToEndTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"
  static let c = "WHOLEPROTOCOL0000003"
  static let token = EndToEnd.token

  /// The entries of a logged `mapsync`'s `map`, decoded.
  static func entries(_ request: LoggedRequest?) -> [[String: Any]] {
    guard let map = request?.parameters["map"], let data = Data(base64Encoded: map) else {
      return []
    }
    return (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
  }

  /// A registered phone with `uids` mapped, and the request log's length then.
  static func registered(_ uids: [String] = []) throws -> (EndToEnd, Int) {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", token]).status == 0)
    if !uids.isEmpty {
      let result = try e2e.tpns.run(["add"] + uids)
      #expect(result.status == 0, "\(result.stderr)")
    }
    return (e2e, try e2e.server.requestLog().count)
  }

  /// `tpns status --json` of `e2e`.
  static func status(_ e2e: EndToEnd) throws -> [String: Any] {
    let result = try e2e.tpns.run(["status", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return jsonDocument(result)
  }

  /// The requests sent since the log had `count` entries, as `cmd` names.
  static func sent(_ e2e: EndToEnd, since count: Int) throws -> [LoggedRequest] {
    Array(try e2e.server.requestLog().dropFirst(count))
  }

  // MARK: lang and dev

  @Test(
    "every cmd=client carries lang and dev: the defaults (enUS, 0), the values given, and the stored ones when the phone is registered again"
  )
  func languageAndSandboxOnEveryClient() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", Self.token]).status == 0)
    #expect(try e2e.tpns.run(["add", Self.a]).status == 0)
    #expect(try e2e.tpns.run(["register", Self.token, "--lang", "zhTW", "--dev"]).status == 0)
    // A server that forgot the phone: the next command registers it again, as stored.
    try e2e.server.restartForgettingEverything()
    let restarted = try e2e.server.requestLog().count
    let result = try e2e.tpns.run(["add", Self.b])
    #expect(result.status == 0, "\(result.stderr)")
    let clients = try Self.sent(e2e, since: restarted).filter { $0.command == "client" }
    #expect(clients.count == 1, "\(clients)")
    #expect(clients.first?.parameters["lang"] == "zhTW")
    #expect(clients.first?.parameters["dev"] == "1")
    let row = try e2e.server.registry().client(appID: StoreFile.defaultAppID, udid: Self.token)
    #expect(row?.language == "zhTW")
    #expect(row?.dev == 1)

    // Another server, then back to production in English.
    let other = try RunningEmulator()
    #expect(try e2e.tpns.run(["sync", "--server", other.server]).status == 0)
    #expect(try e2e.tpns.run(["register", Self.token, "--server", other.server]).status == 0)
    #expect(
      try e2e.tpns.run(["register", Self.token, "--no-dev", "--lang", "enUS"]).status == 0)
    let elsewhere = try other.requestLog().filter { $0.command == "client" }
    #expect(elsewhere.count == 2)
    #expect(elsewhere.allSatisfy { $0.parameters["lang"] == "zhTW" && $0.parameters["dev"] == "1" })
    let all = try e2e.server.requestLog().filter { $0.command == "client" } + elsewhere
    #expect(
      all.allSatisfy { $0.parameters["lang"] != nil && $0.parameters["dev"] != nil }, "\(all)")
    let last = try e2e.server.requestLog().last { $0.command == "client" }
    #expect(last?.parameters["lang"] == "enUS")
    #expect(last?.parameters["dev"] == "0")
  }

  @Test("a first register sends lang=enUS and dev=0, and the store says so")
  func defaults() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", Self.token]).status == 0)
    let client = try e2e.server.requestLog().first
    #expect(client?.parameters["lang"] == "enUS")
    #expect(client?.parameters["dev"] == "0")
    let status = try Self.status(e2e)
    #expect(status["lang"] as? String == "enUS")
    #expect(status["dev"] as? Bool == false)
    #expect(status["registered"] as? Bool == true)
  }

  // MARK: the documented os values

  @Test(
    "every documented os registers with its own udid, the generic token syntax and the Android quickstart's appid, and its list is mapped",
    arguments: ["qqxg", "baidu", "jiguang", "oppo", "huawei", "mi", "wechat"])
  func otherOperatingSystem(os: String) throws {
    let e2e = try EndToEnd()
    let token = "\(os)-push:Token_1.x"
    var result = try e2e.tpns.run(["register", "--os", os, "--udid", "phone-\(os)", token])
    #expect(result.status == 0, "\(result.stderr)")
    result = try e2e.tpns.run(["add", Self.a])
    #expect(result.status == 0, "\(result.stderr)")
    let log = try e2e.server.requestLog()
    #expect(log.map(\.status) == [200, 200])
    #expect(log.first?.parameters["os"] == os)
    #expect(log.first?.parameters["appid"] == "com.tutk.cc.samples.tpns.android")
    #expect(log.first?.parameters["udid"] == "phone-\(os)")
    #expect(log.first?.parameters["token"] == token)
    #expect(log.last?.parameters["os"] == os)
    let row = try e2e.server.registry().client(
      appID: "com.tutk.cc.samples.tpns.android", udid: "phone-\(os)")
    #expect(row?.os == os)
    #expect(try e2e.server.mappedUIDs(udid: "phone-\(os)") == [Self.a])
    let store = try StoreFile(path: e2e.tpns.store)
    #expect(store.desired == .init(token: token, os: os, udid: "phone-\(os)"))
    #expect(store.acknowledged(at: e2e.server.server).registration == store.desired)
    let status = try Self.status(e2e)
    #expect(status["os"] as? String == os)
    #expect(status["pending"] as? Bool == false)
    // A refreshed token keeps the phone, as on Android.
    result = try e2e.tpns.run(["register", "\(os)-push:Token_2"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try e2e.server.requestLog().last?.parameters["udid"] == "phone-\(os)")
  }

  @Test(
    "a phone of another os than iOS needs --udid (64), its token the generic syntax (65), and an os not documented is a usage error",
    arguments: [
      (
        ["register", "--os", "huawei", "push-token"], 64,
        "Error: a phone of os 'huawei' needs its own ID (only an iOS phone's is its token): pass --udid\n"
          + "Pass the phone's own ID with --udid.\n"
      ),
      (
        ["register", "--os", "oppo", "--udid", "p", "bad token"], 65,
        "Error: invalid token: character ' ' at position 4 is not allowed in an oppo token "
          + "(only A-Z, a-z, 0-9 and _ : . -)\n"
          + "An oppo token is 1 to 4096 of A-Z a-z 0-9 _ : . - (for an iOS token, pass --os ios).\n"
      ),
    ] as [([String], Int32, String)])
  func otherOperatingSystemErrors(arguments: [String], status: Int32, stderr: String) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    var result = try tpns.run(arguments)
    // The token on the command line is warned about first; what follows is the error.
    result.stderr = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("Warning: the token was given on the command line") }
      .joined(separator: "\n")
    #expect(result == .init(status: status, stdout: "", stderr: stderr))
    #expect(contents(of: tpns.store) == nil)
    let unknown = try tpns.run(["register", "--os", "windows", "--udid", "p", "t"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.hasPrefix("Error: The value 'windows' is invalid for '--os <os>'"))
  }

  // MARK: per-UID settings

  @Test(
    "add with --interval and --format: stored, listed (text and --json), and sent in the UID's mapsync entry"
  )
  func addWithSettings() throws {
    let (e2e, before) = try Self.registered()
    var result = try e2e.tpns.run([
      "add", Self.a, "--interval", "30", "--format", "motion at %s", "--json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let outcomes = jsonDocument(result)["outcomes"] as? [[String: Any]] ?? []
    #expect(outcomes.first?["event"] as? String == "added")
    #expect(outcomes.first?["interval"] as? Int == 30)
    #expect(outcomes.first?["format"] as? String == "motion at %s")
    result = try e2e.tpns.run(["add", Self.b])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "added \(Self.b)\nsynced 2 UIDs to \(e2e.server.server)\n")

    result = try e2e.tpns.run(["list"])
    #expect(
      result.stdout == "0  \(Self.a)  interval 30 s, format \"motion at %s\"\n1  \(Self.b)\n")
    result = try e2e.tpns.run(["list", "--json"])
    #expect(
      result.stdout
        == #"{"command":"list","store":"\#(e2e.tpns.store)","uids":[{"index":0,"uid":"\#(Self.a)","interval":30,"format":"motion at %s"},{"index":1,"uid":"\#(Self.b)"}]}"#
        + "\n")

    let mapsyncs = try Self.sent(e2e, since: before).filter { $0.command == "mapsync" }
    #expect(mapsyncs.count == 2)
    let entries = Self.entries(mapsyncs.last)
    #expect(entries.count == 2)
    #expect(entries.first?["uid"] as? String == Self.a)
    #expect(entries.first?["interval"] as? Int == 30)
    #expect(entries.first?["format"] as? String == "motion at %s")
    #expect(entries.last.map { Set($0.keys) } == ["uid"])
    #expect(mapsyncs.map(\.status) == [200, 200], "the emulator takes map entries with settings")

    let store = try StoreFile(path: e2e.tpns.store)
    #expect(store.uids == [Self.a, Self.b])
    #expect(store.settings == [Self.a: .init(interval: 30, format: "motion at %s")])
    #expect(store.acknowledged(at: e2e.server.server).settings == store.settings)
    let mapping = try e2e.server.registry().mappings.first { $0.uid == Self.a }
    #expect(mapping?.interval == 30)
    #expect(mapping?.format == "motion at %s")
    #expect(try e2e.server.replicaMismatches(of: store) == [])
    #expect(try Self.status(e2e)["pending"] as? Bool == false)
  }

  @Test(
    "a settings change of a stored UID is stored first and pending (to_update) until a sync sends it"
  )
  func settingsChangePending() throws {
    let (e2e, before) = try Self.registered([Self.a])
    var result = try e2e.tpns.run(["add", Self.a, "--interval", "60", "--no-sync", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let outcomes = jsonDocument(result)["outcomes"] as? [[String: Any]] ?? []
    #expect(outcomes.count == 1)
    #expect(outcomes.first?["event"] as? String == "updated")
    #expect(outcomes.first?["interval"] as? Int == 60)
    #expect(try e2e.server.requestLog().count == before, "--no-sync sends nothing")

    var status = try Self.status(e2e)
    #expect(status["pending"] as? Bool == true)
    #expect(status["to_update"] as? Int == 1)
    #expect(status["to_add"] as? Int == 0)
    #expect(status["next"] as? String == "tpns sync")
    result = try e2e.tpns.run(["status"])
    #expect(
      result.stdout.contains(
        "pending     yes: 0 to add, 0 to remove, settings of 1 UID (tpns sync)"))

    result = try e2e.tpns.run(["sync"])
    #expect(result.status == 0, "\(result.stderr)")
    let sent = try Self.sent(e2e, since: before)
    #expect(sent.map(\.command) == ["mapsync"])
    #expect(Self.entries(sent.first).first?["interval"] as? Int == 60)
    status = try Self.status(e2e)
    #expect(status["pending"] as? Bool == false)
    #expect(status["to_update"] as? Int == 0)
    #expect(
      try StoreFile(path: e2e.tpns.store).acknowledged(at: e2e.server.server).settings
        == [Self.a: .init(interval: 60)])
  }

  @Test(
    "a settings change the server did not get (503s) stays pending; running the command again sends it; --no-format clears the setting"
  )
  func settingsChangeAfterOutage() throws {
    let (e2e, _) = try Self.registered([Self.a])
    try e2e.server.armFault(status: 503, count: 3, retryAfter: 0)
    var result = try e2e.tpns.run(["add", Self.a, "--format", "door"])
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("updated \(Self.a): format \"door\"\n"))
    #expect(try Self.status(e2e)["to_update"] as? Int == 1)
    let before = try e2e.server.requestLog().count
    result = try e2e.tpns.run(["add", Self.a, "--format", "door"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("\(Self.a) is already in the list\nsynced 1 UID"))
    #expect(
      Self.entries(try Self.sent(e2e, since: before).last).first?["format"] as? String == "door")
    #expect(try Self.status(e2e)["pending"] as? Bool == false)

    // Leaving a setting out keeps it at the service: the mapping goes, and comes back.
    let cleared = try e2e.server.requestLog().count
    result = try e2e.tpns.run(["add", Self.a, "--no-format"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("updated \(Self.a): no settings\n"))
    let sent = try Self.sent(e2e, since: cleared)
    #expect(sent.map(\.command) == ["mapsync", "mapsync"])
    #expect(Self.entries(sent.first).isEmpty)
    #expect(Self.entries(sent.last).map { Set($0.keys) } == [["uid"]])
    #expect(try e2e.server.registry().mappings.map(\.format) == [nil])
    #expect(try StoreFile(path: e2e.tpns.store).settings == [:])
    #expect(try Self.status(e2e)["pending"] as? Bool == false)
  }

  @Test(
    "bad settings are refused before anything is stored or sent",
    arguments: [
      (["--interval", "-1"], 64, "Error: The value '-1' is invalid for '--interval <seconds>'"),
      (
        ["--interval", "soon"], 64, "Error: The value 'soon' is invalid for '--interval <seconds>'"
      ),
      (
        ["--interval", "2147483648"], 64,
        "Error: The value '2147483648' is invalid for '--interval <seconds>'"
      ),
      (
        ["--interval", "5", "--no-interval"], 64,
        "Error: --interval and --no-interval cannot be used together"
      ),
      (
        ["--format", "a\u{1B}[2J"], 65,
        "Error: invalid format: it has U+001B at position 2, which is not allowed\n"
          + "Give a format of 1 to 255 characters without control characters"
      ),
      (["--format", ""], 65, "Error: invalid format: it has 0 characters, expected 1 to 255"),
    ] as [([String], Int32, String)])
  func badSettings(options: [String], status: Int32, stderr: String) throws {
    let (e2e, before) = try Self.registered([Self.a])
    let stored = contents(of: e2e.tpns.store)
    for command in [["add", Self.b], ["mapping", Self.b]] {
      let result = try e2e.tpns.run(command + options)
      #expect(result.status == status, "\(command): \(result.stderr)")
      #expect(result.stderr.hasPrefix(stderr), "\(command): \(result.stderr)")
    }
    #expect(contents(of: e2e.tpns.store) == stored)
    #expect(try e2e.server.requestLog().count == before)
  }
}
