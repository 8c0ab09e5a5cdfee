import Foundation
import Locking
import TPNSProtocol
import Testing

@testable import TPNSEmulator

/// Request shapes of ``CompatibilityTests``: events, parameter order, success
/// bodies, values a canonical client would not send, and warnings on the log line.
extension CompatibilityTests {
  // MARK: an empty msg= on event

  @Test(
    "an event with an empty msg= is notified without a message, with a warning; --strict 400",
    arguments: Mode.allCases)
  func emptyMessage(mode: Mode) throws {
    let server = try mode.server()
    try Self.registerAndroid(server)
    #expect(
      try server.post("cmd=mapping&\(Self.androidPhone)&uid=\(Self.uids[0])").status == 200)
    let before = try server.registryText()
    let reply = try server.get(
      "cmd=event&uid=\(Self.uids[0])&event_type=1&msg=&event_time=1700000000")
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      #expect(reply.body == "200 ok: 1 notification\n")
      let notification = try #require(try server.notifications().first)
      #expect(notification["msg"] is NSNull)
      #expect(notification["event_time"] as? Int == 1_700_000_000)
      #expect(try server.lastWarnings() == ["parameter 'msg' is empty (taken as not sent)"])
    case .strict:
      try Self.expectRefused(reply, "parameter 'msg' is empty", server: server, before: before)
      #expect(try server.notifications().isEmpty)
    }
  }

  // MARK: parameters in any order, cmd anywhere

  @Test(
    "parameters in any order, cmd last or in the middle, are canonical", arguments: Mode.allCases)
  func anyOrder(mode: Mode) throws {
    let server = try mode.server()
    let register = try server.post(
      "udid=\(Self.androidID)&token=\(Self.fcmToken)&os=android&appid=\(Self.routerApp)&cmd=client")
    #expect(register.body == "200 ok: client registered\n")
    let map = Self.encoded(MapPayload.encode(Self.uids))
    let sync = try server.get(
      "map=\(map)&os=android&cmd=mapsync&udid=\(Self.androidID)&appid=\(Self.routerApp)")
    #expect(sync.body == "200 ok: 3 UIDs mapped\n")
    #expect(try server.uids(of: Self.androidID) == Self.uids)
    #expect(try server.requests().map { $0["warnings"] as? [String] } == [[], []])
  }

  // MARK: success bodies

  @Test("every success body starts with the status code", arguments: Mode.allCases)
  func bodies(mode: Mode) throws {
    let server = try mode.server()
    let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(Self.iOSToken)"
    let uid = Self.uids[0]
    let exchanges: [(query: String, body: String)] = [
      ("cmd=client&\(phone)&token=\(Self.iOSToken)", "200 ok: client registered\n"),
      ("cmd=client&\(phone)&token=\(Self.iOSToken)", "200 ok: client updated\n"),
      (
        "cmd=mapsync&\(phone)&map=\(Self.encoded(MapPayload.encode([uid])))",
        "200 ok: 1 UID mapped\n"
      ),
      ("cmd=mapping&\(phone)&uid=\(Self.uids[1])", "200 ok: \(Self.uids[1]) mapped\n"),
      ("cmd=mapping&\(phone)&uid=\(Self.uids[1])", "200 ok: \(Self.uids[1]) already mapped\n"),
      ("cmd=device&uid=\(uid)", "200 ok: device \(uid) announced\n"),
      ("cmd=event&uid=\(uid)&event_type=1", "200 ok: 1 notification\n"),
      ("cmd=rm_mapping&\(phone)&uid=\(Self.uids[1])", "200 ok: \(Self.uids[1]) unmapped\n"),
      ("cmd=rm_mapping&\(phone)&uid=\(Self.uids[1])", "200 ok: \(Self.uids[1]) was not mapped\n"),
      (
        "cmd=unreg_mapping&\(phone)&uid=\(uid)",
        "200 ok: unregistered successfully. \(uid) unmapped\n"
      ),
      ("cmd=unreg_mapping&\(phone)", "200 ok: unregistered successfully. 0 UIDs unmapped\n"),
    ]
    for exchange in exchanges {
      let reply = try server.get(exchange.query)
      #expect(reply.status == 200)
      #expect(reply.body == exchange.body)
    }
  }

  // MARK: values a canonical client would not send

  /// A request a canonical client would not send, its reason, and what was done
  /// about it (in the warning after the reason).
  struct Irregular: Sendable, CustomStringConvertible {
    var name: String
    var query: String
    var reason: String
    var consequence: String?

    var description: String { name }
    var warning: String { reason + (consequence.map { " (\($0))" } ?? "") }
  }

  static let token = TestEmulator.token(1)
  static let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(token)"
  static let client = "cmd=client&\(phone)&token=\(token)"
  static let mapsync = "cmd=mapsync&\(phone)&map="
  static let event = "cmd=event&uid=\(TestEmulator.uid(1))&event_type=1"

  static let irregular: [Irregular] = [
    Irregular(
      name: "os windows", query: "cmd=client&os=windows&appid=a.b&udid=x&token=y",
      reason: "parameter 'os' must be one the vendor documents (ios, android, qqxg, baidu, "
        + "jiguang, oppo, huawei, mi, wechat), not 'windows'"),
    Irregular(
      name: "appid with a space", query: "cmd=client&os=ios&appid=a+b&udid=x&token=\(token)",
      reason: "parameter 'appid' has ' ' at position 2, which is not allowed (a '+' sent "
        + "unencoded arrives as a space)"),
    Irregular(
      name: "dev is 2", query: "\(client)&dev=2", reason: "parameter 'dev' must be 0 or 1, not '2'"),
    Irregular(
      name: "dev is true", query: "\(client)&dev=true",
      reason: "parameter 'dev' must be 0 or 1, not 'true'", consequence: "ignored"),
    Irregular(
      name: "empty lang", query: "\(client)&lang=", reason: "parameter 'lang' is empty",
      consequence: "taken as not sent"),
    Irregular(
      name: "unknown parameter", query: "\(client)&colour=blue",
      reason: "unknown parameter 'colour' for cmd=client "
        + "(known: os, appid, udid, token, lang, dev, bgfetch)", consequence: "recorded"),
    Irregular(
      name: "iOS token of 128 hex", query: "cmd=client&\(phone)&token=\(token)\(token)",
      reason: "parameter 'token' has 128 characters, expected 64 (an iOS token must be 64 hex "
        + "characters)"),
    Irregular(
      name: "Android token with base64's + / =",
      query: "cmd=client&os=android&appid=a.b&udid=phone-1&token=k3J9x%2BQm%2F7vR2pL0%3D",
      reason: "parameter 'token' has '+' at position 6, which is not allowed (an Android token "
        + "must be 1 to 4096 characters of A-Z, a-z, 0-9, _ : . -)"),
    Irregular(
      name: "map with a lower-case UID",
      query: "\(mapsync)\(TestEmulator.map(["abcdefghjk0000000001"]))",
      reason: "map entry 0 'abcdefghjk0000000001' is not a device UID: has 'a' at position 1, "
        + "which is not allowed"),
    Irregular(
      name: "map entry with a format that is a number",
      query: "\(mapsync)\(encoded(base64(#"[{"uid":"\#(TestEmulator.uid(1))","format":12}]"#)))",
      reason: "map entry 0 has a format 12 that is not a string (ignored)"),
    Irregular(
      name: "map entry with a null interval",
      query:
        "\(mapsync)\(encoded(base64(#"[{"uid":"\#(TestEmulator.uid(1))","interval":null}]"#)))",
      reason: "map entry 0 has an interval null that is not an integer from 0 to 2147483647 "
        + "(ignored)"),
    Irregular(
      name: "mapping with a lower-case UID",
      query: "cmd=mapping&\(phone)&uid=abcdefghjk0000000002",
      reason: "parameter 'uid' must be 20 characters of A-Z and 0-9: 'abcdefghjk0000000002' has "
        + "'a' at position 1, which is not allowed"),
    Irregular(
      name: "mapping with interval -1",
      query: "cmd=mapping&\(phone)&uid=\(TestEmulator.uid(2))&interval=-1",
      reason: "parameter 'interval' must be an integer from 0 to 2147483647, not '-1'"),
    Irregular(
      name: "mapping with interval soon",
      query: "cmd=mapping&\(phone)&uid=\(TestEmulator.uid(2))&interval=soon",
      reason: "parameter 'interval' must be an integer from 0 to 2147483647, not 'soon'",
      consequence: "ignored"),
    Irregular(
      name: "mapping with a format of 300 characters",
      query: "cmd=mapping&\(phone)&uid=\(TestEmulator.uid(2))&format="
        + String(repeating: "A", count: 300),
      reason: "parameter 'format' has 300 characters, expected 1 to 255"),
    Irregular(
      name: "event with a fraction as time", query: "\(event)&event_time=1.5",
      reason: "parameter 'event_time' must be an integer from 0 to 253402300799, not '1.5'",
      consequence: "ignored"),
    Irregular(
      name: "event time in milliseconds", query: "\(event)&event_time=1700000000000",
      reason: "parameter 'event_time' must be an integer from 0 to 253402300799, "
        + "not '1700000000000'"),
    Irregular(
      name: "event type beyond 32 bits",
      query: "cmd=event&uid=\(TestEmulator.uid(1))"
        + "&event_type=99999999999",
      reason: "parameter 'event_type' must be an integer from -2147483648 to 2147483647, "
        + "not '99999999999'"),
    Irregular(
      name: "event with a control character", query: "\(event)&msg=a%01",
      reason: "parameter 'msg' has U+0001 at position 2, which is not allowed"),
  ]

  @Test(
    "a value a canonical client would not send: 200 with the warning; --strict 400 changing nothing",
    arguments: irregular, Mode.allCases)
  func irregularValue(request: Irregular, mode: Mode) throws {
    let server = try mode.server()
    try server.registerIOS(token: Self.token)
    _ = try server.post("\(Self.mapsync)\(TestEmulator.map([TestEmulator.uid(1)]))")
    let before = try server.registryText()
    let reply = try server.get(request.query)
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      #expect(reply.body.hasPrefix("200 ok: "))
      #expect(try server.lastWarnings() == [request.warning])
    case .strict:
      try Self.expectRefused(reply, request.reason, server: server, before: before)
    }
  }

  // MARK: warnings on the log line

  @Test("warnings are on the request's log line, after the status and duration")
  func logLine() throws {
    let lines = LockedState<[String]>([])
    let server = try Mode.lenient.server(logger: { line in lines.withLock { $0.append(line) } })
    _ = try server.get("cmd=device&uid=\(Self.uids[0])&interval=60")
    _ = try server.get("cmd=device&uid=\(Self.uids[0])&interval=60&debug=")
    let logged = lines.withLock { $0 }
    #expect(logged.count == 2)
    let pattern =
      #"^\S+ GET /tpns cmd=device 200 [0-9]+\.[0-9]{2}ms warning: unknown parameter 'interval' "#
      + #"for cmd=device \(known: uid\) \(recorded\)$"#
    #expect(logged.first?.range(of: pattern, options: .regularExpression) != nil, "\(logged)")
    #expect(
      logged.last?.hasSuffix(
        " warning: unknown parameters 'interval', 'debug' for cmd=device (known: uid) (recorded)")
        == true)
  }

  @Test("a refused request logs the warnings found before its refusal")
  func warningsBeforeRefusal() throws {
    let server = try Mode.lenient.server()
    let reply = try server.get("cmd=client&os=windows&appid=a.b&udid=x&token=a%20b")
    #expect(reply.status == 400)
    #expect(
      reply.body
        == "error: parameter 'token' has ' ' at position 2, which is not allowed (a token must "
        + "be 1 to 4096 characters of A-Z, a-z, 0-9, _ : . + / = -)\n")
    #expect(
      try server.lastWarnings() == [
        "parameter 'os' must be one the vendor documents (ios, android, qqxg, baidu, jiguang, "
          + "oppo, huawei, mi, wechat), not 'windows'"
      ])
    #expect(try server.clients().isEmpty)
  }
}
