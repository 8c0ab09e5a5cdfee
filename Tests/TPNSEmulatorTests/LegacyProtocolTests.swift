import Foundation
import TPNSProtocol
import Testing

@testable import TPNSEmulator

/// The legacy path and command names that firmware and older apps send
/// (`/apns/apns.php`, `reg_client`, …), and `cmd=hello`: answered as the
/// current ones by default, with a warning naming what was sent; refused
/// with the reason in `--strict`.
@Suite struct LegacyProtocolTests {
  static let token = TestEmulator.token(7)
  static let uid = TestEmulator.uid(7)
  static let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(token)"

  struct Legacy: Sendable, CustomStringConvertible {
    var path: String
    var query: String
    var body: String
    var warnings: [String]
    var description: String { "\(path)?\(query.prefix(24))" }
  }

  static let pathWarning =
    "path '/apns/apns.php' is the legacy path of the service (/tpns) (answered as /tpns)"

  static let requests: [Legacy] = [
    .init(
      path: "/apns/apns.php", query: "cmd=reg_client&\(phone)&token=\(token)",
      body: "200 ok: client registered\n",
      warnings: [
        pathWarning, "cmd 'reg_client' is the older name of 'client' (answered as cmd=client)",
      ]),
    .init(
      path: "/tpns", query: "cmd=reg_client&\(phone)&token=\(token)",
      body: "200 ok: client registered\n",
      warnings: ["cmd 'reg_client' is the older name of 'client' (answered as cmd=client)"]),
    .init(
      path: "/tpns/apns.php", query: "cmd=client&\(phone)&token=\(token)",
      body: "200 ok: client registered\n",
      warnings: [
        "path '/tpns/apns.php' is the legacy path of the service (/tpns) (answered as /tpns)"
      ]),
    .init(
      path: "/apns/apns.php", query: "cmd=reg_server&uid=\(uid)",
      body: "200 ok: device \(uid) announced\n",
      warnings: [
        pathWarning, "cmd 'reg_server' is the older name of 'device' (answered as cmd=device)",
      ]),
    .init(
      path: "/apns/apns.php", query: "cmd=hello", body: "200 hi\n", warnings: [pathWarning]),
    .init(path: "/tpns", query: "cmd=hello", body: "200 hi\n", warnings: []),
  ]

  @Test(
    "each legacy path and older name is answered as the current one, with warnings naming it",
    arguments: requests)
  func answeredAsCurrent(_ legacy: Legacy) throws {
    let server = try TestEmulator()
    let reply = try RawHTTPClient.send(port: server.port, target: "\(legacy.path)?\(legacy.query)")
    #expect(reply.status == 200)
    #expect(reply.body == legacy.body)
    let logged = try #require(try server.requests().last)
    #expect(logged["path"] as? String == legacy.path)
    #expect(
      (logged["params"] as? [String: Any])?["cmd"] as? String
        == String(legacy.query.prefix { $0 != "&" }.dropFirst("cmd=".count)))
    #expect(logged["warnings"] as? [String] == legacy.warnings)
  }

  @Test(
    "--strict refuses a legacy path or an older name with the reason, and changes nothing",
    arguments: requests.filter { !$0.warnings.isEmpty })
  func strictRefuses(_ legacy: Legacy) throws {
    let server = try TestEmulator(strict: true)
    let before = try server.registryText()
    let reply = try RawHTTPClient.send(port: server.port, target: "\(legacy.path)?\(legacy.query)")
    #expect(reply.status == 400)
    let reason = String(
      legacy.warnings[0][..<legacy.warnings[0].range(of: " (answered as")!.lowerBound])
    #expect(reply.body == "error: \(reason)\n")
    #expect(try server.registryText() == before)
  }

  @Test("hello changes nothing and answers in strict mode too")
  func helloChangesNothing() throws {
    let server = try TestEmulator(strict: true)
    try server.registerIOS(token: Self.token)
    let before = try server.registryText()
    let reply = try server.post("cmd=hello")
    #expect(reply.status == 200)
    #expect(reply.body.contains("hi"))
    #expect(try server.registryText() == before)
  }

  /// Firmware's event: a GET built by `sprintf`, a browser-like header block,
  /// to the legacy path with the older name.
  @Test("firmware's raise_event GET to /apns/apns.php pushes to every mapped phone")
  func firmwareRaiseEvent() throws {
    let server = try TestEmulator()
    try server.registerIOS(token: Self.token)
    #expect(try server.get("cmd=reg_mapping&\(Self.phone)&uid=\(Self.uid)").status == 200)
    #expect(try server.uids(of: Self.token) == [Self.uid])
    let request =
      "GET /apns/apns.php?cmd=raise_event&uid=\(Self.uid)&event_type=2&event_time=1700000000 HTTP/1.1\r\n"
      + "Accept: image/gif, image/jpeg, */*\r\nAccept-Language: en-us\r\n"
      + "User-Agent: Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)\r\n"
      + "Host: 127.0.0.1:\(server.port)\r\nConnection: Keep-Alive\r\n\r\n"
    let reply = try RawHTTPClient.exchange(port: server.port, Array(request.utf8), oneReply: true)
    #expect(reply.status == 200)
    #expect(reply.body.hasPrefix("200 ok: "))
    let notifications = try server.notifications()
    #expect(notifications.count == 1)
    #expect(notifications.first?["uid"] as? String == Self.uid)
    #expect(notifications.first?["udid"] as? String == Self.token)
    #expect(notifications.first?["event_type"] as? Int == 2)
  }

  @Test("an unknown cmd lists the current and the older names")
  func unknownListsOlderNames() throws {
    let server = try TestEmulator()
    let reply = try server.get("cmd=reg_phone")
    #expect(reply.status == 400)
    #expect(
      reply.body
        == "error: unknown cmd 'reg_phone' (known: client, mapsync, mapping, rm_mapping, "
        + "unreg_mapping, device, event, hello; older: reg_client, reg_mapping, reg_server, "
        + "raise_event)\n")
  }

  @Test("CommandName(wireName:) takes both name sets; legacyName is the older one")
  func wireNames() {
    #expect(CommandName(wireName: "reg_client") == .client)
    #expect(CommandName(wireName: "reg_mapping") == .mapping)
    #expect(CommandName(wireName: "raise_event") == .event)
    #expect(CommandName(wireName: "reg_server") == .device)
    #expect(CommandName(wireName: "rm_mapping") == .rmMapping)
    #expect(CommandName(wireName: "hello") == .hello)
    #expect(CommandName(wireName: "reg_mapsync") == nil)
    #expect(CommandName.allCases.compactMap(\.legacyName).count == 4)
  }
}
