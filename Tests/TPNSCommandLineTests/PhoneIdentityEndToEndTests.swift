import Foundation
import TPNSKit
import TPNSTestSupport
import Testing

/// Who a server and a phone are, end to end (the built `tpns`, emulators in
/// process): spellings of one server's URL are one server; a phone is its
/// appid and udid; a former phone the server will not unmap stays pending.
@Suite struct PhoneIdentityEndToEndTests {
  static let t1 = String(repeating: "0f", count: 32)
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"
  static let token = "android-token-one"
  static let otherToken = "android-token-two"
  static let appID = StoreFile.defaultAppID(for: "android")

  /// Sends `cmd=client` for the Android phone `udid` straight to `server`,
  /// as another app on the phone (or another store) would.
  static func register(
    os: String, udid: String, token: String = Self.token, at server: RunningEmulator
  ) throws {
    let query = "cmd=client&os=\(os)&appid=\(appID)&udid=\(udid)&token=\(token)"
    let response = try server.transport.perform(
      HTTPRequest(method: .get, url: "\(server.server)?\(query)"))
    #expect(response.status == 200, "\(response.body)")
  }

  @Test(
    "localhost and 127.0.0.1 are one server: a change made at one spelling is known at the other, and a later change is sent"
  )
  func spellingsOfOneServer() throws {
    let world = try TwoServers()
    let numeric = world.a.server
    let named = numeric.replacingOccurrences(of: "127.0.0.1", with: "localhost")
    let shouted = named.replacingOccurrences(of: "http://localhost", with: "HTTP://LOCALHOST")
    let atNumeric = TPNSProcess(store: world.store, server: numeric)
    let atNamed = TPNSProcess(store: world.store, server: named)
    #expect(try atNumeric.run(["register", Self.t1]).status == 0)
    #expect(try atNumeric.run(["add", Self.a]).status == 0)
    var result = try atNamed.run(["add", Self.b])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(Set(try world.a.mappedUIDs(udid: Self.t1)) == [Self.a, Self.b])
    // Removed at the other spelling: the server must be told (its record
    // under that spelling is the same server's, which holds b).
    result = try atNumeric.run(["remove", "--uid", Self.b])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try world.a.mappedUIDs(udid: Self.t1) == [Self.a])
    let servers = try #require(
      (try PropertyListSerialization.propertyList(
        from: Data(contentsOf: URL(fileURLWithPath: world.store)), format: nil)
        as? [String: Any])?["Servers"] as? [String: Any])
    #expect(Array(servers.keys) == [numeric], "one entry for every spelling")
    for spelling in [numeric, named, shouted] {
      let status = try TPNSProcess(store: world.store, server: spelling).run(["status", "--json"])
      let report = StatusReport(jsonDocument(status))
      #expect(report.pending == false, "\(spelling): \(status.stdout)")
      #expect(report.registered == true, "\(spelling)")
    }
    try world.expectReplicas("after changes at both spellings", reconciled: world.a)
  }

  @Test(
    "a former phone the server refuses to unmap (400) stays pending: status names it, sync asks again, and once the server accepts, it is done"
  )
  func refusedUnmapStaysPending() throws {
    let world = try TwoServers()
    let first = ["register", "--os", "android", "--udid", "phone-one", Self.token]
    #expect(try world.run(first).status == 0)
    #expect(try world.run(["add", Self.a, Self.b]).status == 0)
    // The phone is registered there with another os now (its other app, say):
    // the strict emulator refuses an unreg_mapping that names the os tpns knows.
    try Self.register(os: "huawei", udid: "phone-one", at: world.a)

    let second = ["register", "--os", "android", "--udid", "phone-two", Self.otherToken]
    var result = try world.run(second)
    #expect(result.status == 76, "\(result.stderr)")
    #expect(result.stderr.contains("refused to unmap the former phone"), "\(result.stderr)")
    #expect(Set(try world.a.mappedUIDs(udid: "phone-two")) == [Self.a, Self.b])
    #expect(Set(try world.a.mappedUIDs(udid: "phone-one")) == [Self.a, Self.b])

    var status = try world.run(["status", "--json"])
    var document = jsonDocument(status)
    #expect(document["pending"] as? Bool == true, "\(status.stdout)")
    #expect(document["next"] as? String == "tpns sync")
    let formers = document["former_phones"] as? [[String: Any]] ?? []
    #expect(formers.count == 1, "\(status.stdout)")
    #expect(formers.first?["os"] as? String == "android")
    #expect(formers.first?["appid"] as? String == Self.appID)
    let text = try world.run(["status"])
    #expect(text.stdout.contains("former phone to unmap"), "\(text.stdout)")
    #expect(text.stdout.contains("former "), "\(text.stdout)")

    // Refused again: asked again, and still pending.
    var before = try world.a.requestLog().count
    result = try world.run(["sync"])
    #expect(result.status == 76, "\(result.stderr)")
    var sent = try world.a.requestLog().dropFirst(before).map(\.command)
    #expect(sent.first == "unreg_mapping", "\(sent)")
    #expect(try world.status().pending == true)

    // Back as tpns registered it: the next sync unmaps it, and nothing is pending.
    try Self.register(os: "android", udid: "phone-one", at: world.a)
    before = try world.a.requestLog().count
    result = try world.run(["sync"])
    #expect(result.status == 0, "\(result.stderr)")
    sent = try world.a.requestLog().dropFirst(before).map(\.command)
    #expect(sent.first == "unreg_mapping", "\(sent)")
    #expect(try world.a.mappedUIDs(udid: "phone-one") == [])
    status = try world.run(["status", "--json"])
    document = jsonDocument(status)
    #expect(document["pending"] as? Bool == false, "\(status.stdout)")
    #expect((document["former_phones"] as? [Any])?.isEmpty == true)
  }

  @Test(
    "only the os changes (register --os huawei for the Android udid): the same phone, updated in place; nothing is unmapped, exit 0, nothing pending"
  )
  func osOnlyChange() throws {
    let world = try TwoServers()
    #expect(
      try world.run(["register", "--os", "android", "--udid", "phone-one", Self.token]).status
        == 0)
    #expect(try world.run(["add", Self.a, Self.b]).status == 0)
    let before = try world.a.requestLog().count
    let result = try world.run(["register", "--os", "huawei", "--udid", "phone-one", Self.token])
    #expect(result.status == 0, "\(result.stderr)")
    let sent = try world.a.requestLog().dropFirst(before)
    #expect(!sent.contains { $0.command == "unreg_mapping" }, "\(sent)")
    #expect(sent.allSatisfy { $0.status == 200 }, "\(sent)")
    let client = try world.a.registry().client(appID: Self.appID, udid: "phone-one")
    #expect(client?.os == "huawei")
    #expect(Set(try world.a.mappedUIDs(udid: "phone-one")) == [Self.a, Self.b])
    #expect(try world.status().pending == false)
    try world.expectReplicas("after the os change", reconciled: world.a)
    try world.expectEvent(Self.a, reachesOnlyTheDesiredPhoneAt: world.a)
  }
}
