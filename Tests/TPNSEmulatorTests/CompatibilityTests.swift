import Foundation
import Locking
import TPNSProtocol
import Testing

@testable import TPNSEmulator

/// The two ways the emulator can run.
enum Mode: CaseIterable, CustomStringConvertible {
  /// The default: what real clients send is accepted, the irregular recorded as warnings.
  case lenient
  /// `--strict`: what a canonical client would not send is refused with 400.
  case strict

  var description: String { self == .strict ? "--strict" : "default" }

  func server(logger: Emulator.Logger? = nil) throws -> TestEmulator {
    try TestEmulator(strict: self == .strict, logger: logger)
  }
}

/// The fidelity suite: request shapes that public client code sends to the real TPNS
/// (TUTK's quickstarts, camera and router apps, device firmware), sent byte for byte
/// with values of our own, then the registry and notifications checked, in both
/// modes. Every shape is accepted by default, with what was irregular as warnings;
/// with `--strict`, a shape a canonical client would not send is a 400 with the
/// reason, and changes nothing. (What is refused in both modes is in
/// ``RouterTests/malformed``.)
@Suite("Compatibility: what real clients send, in both modes")
struct CompatibilityTests {
  // Values of our own, in the shapes real clients use.
  static let iOSToken = "5d0c7a3e9b1f48c2a6e0d4b8f2c61a9e7b3d5f0a8c2e4b6d1f9a3c5e7b0d2f4a"
  static let vendorUUID = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
  static let androidID = "9774d56d682e549c"
  static let fcmToken = "fT9xQ2mWk0E:APA91bHq7Zr-Lw3_sN8vC1yU5tJ0pXoK.d6Ge4"
  static let cameraApp = "com.example.camviewer"
  static let routerApp = "com.example.router"
  static let uids = ["E5KC4Y9G1RWQ7HTM2ZXA", "B2NDW8XV6LPK3JFQ9S1C", "H7MT4RZ2K9CQW1XJ5VPA"]
  /// A router app's message template, base64 as it sends it: `{dev_name} {event_type}\r\n{msg}`.
  static let template = Data("{dev_name} {event_type}\r\n{msg}".utf8).base64EncodedString()
  /// A router app's `customized_payload`: base64 of an FCM notification.
  static let payload = Data(#"{"notification":{"title":"%TOPIC%","body":"%BODY%"}}"#.utf8)
    .base64EncodedString()

  static func encoded(_ text: String) -> String { TestEmulator.percentEncoded(text) }

  static func base64(_ json: String) -> String { Data(json.utf8).base64EncodedString() }

  /// The iOS camera app's registration: the quickstart's, plus `osver`, `appver` and
  /// `model`, `cmd` first and the rest in its own order.
  static let iOSAppClient =
    "cmd=client&token=\(iOSToken)&appid=\(cameraApp)&dev=0&lang=zh_CN&udid=\(vendorUUID)"
    + "&os=ios&osver=17.2&appver=2024031501&model=iPhone"

  /// A router app's Android registration: exactly the protocol's parameters.
  static let androidClient =
    "cmd=client&os=android&appid=\(routerApp)&udid=\(androidID)&token=\(fcmToken)&lang=en"
    + "&bgfetch=1&dev=0"

  static let androidPhone = "os=android&appid=\(routerApp)&udid=\(androidID)"

  /// Registers the Android phone (canonical: accepted in both modes, no warning).
  static func registerAndroid(_ server: TestEmulator) throws {
    let reply = try server.post(androidClient)
    #expect(reply.status == 200)
    #expect(try server.lastWarnings() == [])
  }

  /// Expects `reply` to be strict mode's 400 for `reason`, and the registry unchanged.
  static func expectRefused(
    _ reply: HTTPReply, _ reason: String, server: TestEmulator, before: String
  ) throws {
    #expect(reply.status == 400)
    #expect(reply.body == "error: \(reason)\n")
    #expect(try server.registryText() == before)
    #expect(try server.requests().last?["error"] as? String == reason)
  }

  // MARK: map entries with more keys than uid

  @Test(
    "map entries with an interval (TUTK's Android quickstart, NO_WRAP, raw in a GET) are canonical",
    arguments: Mode.allCases)
  func quickstartIntervals(mode: Mode) throws {
    let server = try mode.server()
    try Self.registerAndroid(server)
    let json = #"[{"uid":"\#(Self.uids[0])","interval":3},{"uid":"\#(Self.uids[1])","interval":3}]"#
    // Sent raw, as the quickstart formats its URL: '=' and '/' as they are.
    let reply = try server.get("cmd=mapsync&\(Self.androidPhone)&map=\(Self.base64(json))")
    #expect(reply.status == 200)
    #expect(reply.body == "200 ok: 2 UIDs mapped\n")
    let mappings = try server.registry("mappings")
    #expect(mappings.map { $0["uid"] as? String } == [Self.uids[0], Self.uids[1]])
    #expect(mappings.map { $0["interval"] as? Int } == [3, 3])
    #expect(mappings.map { $0["format"] is NSNull } == [true, true])
    #expect(try server.lastWarnings() == [])
  }

  @Test(
    "map entries with an interval and a base64 format (a router app) are stored per mapping",
    arguments: Mode.allCases)
  func routerEntries(mode: Mode) throws {
    let server = try mode.server()
    try Self.registerAndroid(server)
    let json =
      #"[{"uid":"\#(Self.uids[0])","interval":3,"format":"\#(Self.template)"},"#
      + #"{"uid":"\#(Self.uids[1])","format":"\#(Self.template)"}]"#
    let reply = try server.post(
      "cmd=mapsync&\(Self.androidPhone)&map=\(Self.encoded(Self.base64(json)))")
    #expect(reply.status == 200)
    let mappings = try server.registry("mappings")
    #expect(mappings.map { $0["interval"] as? Int } == [3, nil])
    #expect(mappings.map { $0["format"] as? String } == [Self.template, Self.template])
    #expect(try server.lastWarnings() == [])
  }

  @Test(
    "map entries with keys of their own: kept in the mapping's extra with a warning; --strict 400",
    arguments: Mode.allCases)
  func entryOtherKeys(mode: Mode) throws {
    let server = try mode.server()
    try Self.registerAndroid(server)
    let before = try server.registryText()
    let json =
      #"[{"uid":"\#(Self.uids[0])","interval":5,"name":"Front door","ch":1},"#
      + #"{"uid":"\#(Self.uids[1])"}]"#
    let reply = try server.post(
      "cmd=mapsync&\(Self.androidPhone)&map=\(Self.encoded(Self.base64(json)))")
    let reason = "map entry 0 has keys besides uid, interval and format: ch, name"
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      #expect(reply.body == "200 ok: 2 UIDs mapped\n")
      let mappings = try server.registry("mappings")
      #expect(mappings.map { $0["interval"] as? Int } == [5, nil])
      let extra = try #require(mappings.first?["extra"] as? [String: Any])
      #expect(extra["name"] as? String == "Front door")
      #expect(extra["ch"] as? Int == 1)
      #expect((mappings.last?["extra"] as? [String: Any])?.isEmpty == true)
      #expect(try server.lastWarnings() == [reason])
    case .strict:
      try Self.expectRefused(reply, reason, server: server, before: before)
    }
  }

  @Test(
    "a map entry's interval as a string is taken as the integer, with a warning; --strict 400",
    arguments: Mode.allCases)
  func entryIntervalString(mode: Mode) throws {
    let server = try mode.server()
    try Self.registerAndroid(server)
    let before = try server.registryText()
    let json = #"[{"uid":"\#(Self.uids[0])","interval":"3"}]"#
    let reply = try server.post(
      "cmd=mapsync&\(Self.androidPhone)&map=\(Self.encoded(Self.base64(json)))")
    let reason =
      #"map entry 0 has an interval "3" that is not an integer from 0 to 2147483647 (taken as 3)"#
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      #expect(try server.registry("mappings").map { $0["interval"] as? Int } == [3])
      #expect(try server.lastWarnings() == [reason])
    case .strict:
      try Self.expectRefused(reply, reason, server: server, before: before)
    }
  }

  @Test("keys of many entries are one warning, quoted printably")
  func manyEntriesOtherKeys() throws {
    let server = try Mode.lenient.server()
    try Self.registerAndroid(server)
    let json =
      "["
      + (1...7).map { #"{"uid":"\#(TestEmulator.uid($0))","n\u000Ame":\#($0)}"# }
      .joined(separator: ",") + "]"
    let reply = try server.post(
      "cmd=mapsync&\(Self.androidPhone)&map=\(Self.encoded(Self.base64(json)))")
    #expect(reply.body == "200 ok: 7 UIDs mapped\n")
    #expect(
      try server.lastWarnings() == [
        #"map entries 0, 1, 2, 3, 4 and 2 more have keys besides uid, interval and format: n\u{a}me"#
      ])
    #expect(
      try server.registry("mappings").last?["extra"] as? [String: Int] == ["n\nme": 7])
  }

  // MARK: map base64 with line breaks

  /// `text` as Android's `Base64.DEFAULT` encodes it: lines of 76 characters, each
  /// followed by `separator` (the last one too).
  static func wrapped(_ base64: String, separator: String) -> String {
    var lines: [Substring] = []
    var rest = Substring(base64)
    while !rest.isEmpty {
      lines.append(rest.prefix(76))
      rest = rest.dropFirst(76)
    }
    return lines.map { $0 + separator }.joined()
  }

  @Test(
    "map base64 in 76-character lines (Android's Base64.DEFAULT, sent as %0A): mapped with a warning; --strict 400",
    arguments: Mode.allCases, [("\n", TestEmulator.Method.post), ("\n", .get), ("\r\n", .post)])
  func lineBreaks(mode: Mode, wrapping: (separator: String, method: TestEmulator.Method)) throws {
    let server = try mode.server()
    try Self.registerAndroid(server)
    let before = try server.registryText()
    let json = "[" + Self.uids.map { #"{"uid":"\#($0)"}"# }.joined(separator: ",") + "]"
    let map = Self.wrapped(Self.base64(json), separator: wrapping.separator)
    #expect(map.split(separator: wrapping.separator).map(\.count) == [76, 52])
    let reply = try server.send(
      wrapping.method, "cmd=mapsync&\(Self.androidPhone)&map=\(Self.encoded(map))")
    let reason =
      "map is base64 broken into lines (Android's Base64.DEFAULT); a canonical client sends it "
      + "on one line (Base64.NO_WRAP)"
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      #expect(reply.body == "200 ok: 3 UIDs mapped\n")
      #expect(try server.uids(of: Self.androidID) == Self.uids)
      #expect(try server.lastWarnings() == [reason])
    case .strict:
      try Self.expectRefused(reply, reason, server: server, before: before)
    }
  }

  // MARK: parameters the table does not list

  @Test(
    "client with osver, appver, model (an iOS camera app): kept in the phone's extra; --strict 400",
    arguments: Mode.allCases)
  func clientExtras(mode: Mode) throws {
    let server = try mode.server()
    let before = try server.registryText()
    let reply = try server.get(Self.iOSAppClient)
    let reason =
      "unknown parameters 'osver', 'appver', 'model' for cmd=client "
      + "(known: os, appid, udid, token, lang, dev, bgfetch)"
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      #expect(reply.body == "200 ok: client registered\n")
      let client = try #require(try server.clients().first)
      #expect(client["udid"] as? String == Self.vendorUUID)
      #expect(client["token"] as? String == Self.iOSToken)
      #expect(client["lang"] as? String == "zh_CN")
      #expect(client["dev"] as? Int == 0)
      #expect(
        client["extra"] as? [String: String]
          == ["osver": "17.2", "appver": "2024031501", "model": "iPhone"])
      #expect(try server.lastWarnings() == [reason + " (recorded)"])
    case .strict:
      try Self.expectRefused(reply, reason, server: server, before: before)
    }
  }

  @Test(
    "client with an empty ucid= (a camera app): kept as an empty string; --strict 400",
    arguments: Mode.allCases)
  func emptyUnknownParameter(mode: Mode) throws {
    let server = try mode.server()
    let query =
      "cmd=client&os=ios&appid=\(Self.cameraApp)&token=\(Self.iOSToken)&udid=\(Self.iOSToken)"
      + "&lang=enUS&ucid=&dev=1"
    let before = try server.registryText()
    let reply = try server.get(query)
    let reason =
      "unknown parameter 'ucid' for cmd=client (known: os, appid, udid, token, lang, dev, bgfetch)"
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      let client = try #require(try server.clients().first)
      #expect(client["extra"] as? [String: String] == ["ucid": ""])
      #expect(client["dev"] as? Int == 1)
      #expect(try server.lastWarnings() == [reason + " (recorded)"])
    case .strict:
      try Self.expectRefused(reply, reason, server: server, before: before)
    }
  }

  @Test(
    "mapping with customized_payload, format and interval (a router app): stored; --strict 400",
    arguments: Mode.allCases)
  func mappingExtras(mode: Mode) throws {
    let server = try mode.server()
    try Self.registerAndroid(server)
    let before = try server.registryText()
    let body =
      "cmd=mapping&os=android&appid=\(Self.routerApp)&uid=\(Self.uids[0])&udid=\(Self.androidID)"
      + "&format=\(Self.encoded(Self.template))&interval=3"
      + "&customized_payload=\(Self.encoded(Self.payload))"
    let reply = try server.post(body)
    let reason =
      "unknown parameter 'customized_payload' for cmd=mapping "
      + "(known: os, appid, udid, uid, interval, format)"
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      #expect(reply.body == "200 ok: \(Self.uids[0]) mapped\n")
      let mapping = try #require(try server.registry("mappings").first)
      #expect(mapping["interval"] as? Int == 3)
      #expect(mapping["format"] as? String == Self.template)
      #expect(mapping["extra"] as? [String: String] == ["customized_payload": Self.payload])
      #expect(try server.lastWarnings() == [reason + " (recorded)"])
    case .strict:
      try Self.expectRefused(reply, reason, server: server, before: before)
    }
  }

  @Test(
    "mapping with lang and token (an iOS app): kept in the mapping's extra; --strict 400",
    arguments: Mode.allCases)
  func mappingLangToken(mode: Mode) throws {
    let server = try mode.server()
    try server.registerIOS(token: Self.iOSToken)
    let before = try server.registryText()
    let reply = try server.get(
      "cmd=mapping&os=ios&appid=\(TestEmulator.appid)&udid=\(Self.iOSToken)&uid=\(Self.uids[2])"
        + "&lang=enUS&token=\(Self.iOSToken)")
    let reason =
      "unknown parameters 'lang', 'token' for cmd=mapping "
      + "(known: os, appid, udid, uid, interval, format)"
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      let mapping = try #require(try server.registry("mappings").first)
      #expect(mapping["uid"] as? String == Self.uids[2])
      #expect(mapping["extra"] as? [String: String] == ["lang": "enUS", "token": Self.iOSToken])
      #expect(try server.lastWarnings() == [reason + " (recorded)"])
    case .strict:
      try Self.expectRefused(reply, reason, server: server, before: before)
    }
  }

  @Test(
    "device with interval and debug (device firmware): kept in the device's extra; --strict 400",
    arguments: Mode.allCases)
  func deviceExtras(mode: Mode) throws {
    let server = try mode.server()
    let before = try server.registryText()
    let reply = try server.get("cmd=device&uid=\(Self.uids[0])&interval=60&debug=1")
    let reason = "unknown parameters 'interval', 'debug' for cmd=device (known: uid)"
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      #expect(reply.body == "200 ok: device \(Self.uids[0]) announced\n")
      let device = try #require(try server.registry("devices").first)
      #expect(device["extra"] as? [String: String] == ["interval": "60", "debug": "1"])
      #expect(try server.lastWarnings() == [reason + " (recorded)"])
    case .strict:
      try Self.expectRefused(reply, reason, server: server, before: before)
      #expect(try server.registry("devices").isEmpty)
    }
  }

  @Test(
    "event with sound=, customized_payload, interval, debug (device firmware): on each notification; --strict 400",
    arguments: Mode.allCases)
  func eventExtras(mode: Mode) throws {
    let server = try mode.server()
    try Self.registerAndroid(server)
    #expect(
      try server.post("cmd=mapping&\(Self.androidPhone)&uid=\(Self.uids[0])").status == 200)
    let before = try server.registryText()
    let reply = try server.get(
      "cmd=event&uid=\(Self.uids[0])&event_type=2&msg=Motion&event_time=1700000000&sound="
        + "&customized_payload=\(Self.encoded(Self.payload))&interval=30&debug=0")
    let reason =
      "unknown parameters 'sound', 'customized_payload', 'interval', 'debug' for cmd=event "
      + "(known: uid, event_type, msg, event_time)"
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      #expect(reply.body == "200 ok: 1 notification\n")
      let notification = try #require(try server.notifications().first)
      #expect(notification["udid"] as? String == Self.androidID)
      #expect(notification["token"] as? String == Self.fcmToken)
      #expect(notification["msg"] as? String == "Motion")
      #expect(
        notification["extra"] as? [String: String]
          == ["sound": "", "customized_payload": Self.payload, "interval": "30", "debug": "0"])
      #expect(try server.lastWarnings() == [reason + " (recorded)"])
    case .strict:
      try Self.expectRefused(reply, reason, server: server, before: before)
      #expect(try server.notifications().isEmpty)
    }
  }

  // MARK: os values beyond ios and android

  /// The `os` values the vendor documents besides `ios` and `android`, each with a
  /// token in its push service's shape.
  static let vendorSystems: [(os: String, token: String)] = [
    ("qqxg", "0f4e2b7c9a1d3e5f6a7b8c9d0e1f2a3b4c5d6e7f"),
    ("baidu", "4523119784561234567"),
    ("jiguang", "1a0018970a8b4c2d1e3"),
    ("oppo", "CN_2f7d6a1c9e8b4a3f5d2c1b0a99887766"),
    ("huawei", "AQAAAACy0kYqAADkE2hLkX9sYpR0c-1xWq"),
    ("mi", "k3J9x+Qm/7vR2pL0aZ8w4nT6yB1cD5eF="),
    ("wechat", "oV3bF5nK2xQ9m-T7c_ZpL1aW8yR4"),
  ]

  @Test(
    "an os the vendor documents is canonical (tpns sends it): it registers, maps and is notified; a token with + / = (base64) is tolerated with a warning, 400 with --strict",
    arguments: Mode.allCases, vendorSystems)
  func vendorOS(mode: Mode, system: (os: String, token: String)) throws {
    let server = try mode.server()
    let phone = "os=\(system.os)&appid=\(Self.routerApp)&udid=\(Self.androidID)"
    let before = try server.registryText()
    let reply = try server.post("cmd=client&\(phone)&token=\(Self.encoded(system.token))")
    // tpns sends these tokens in FCM's syntax; a base64 one is not canonical.
    let violation = try #require(OperatingSystem(rawValue: system.os)).tokenViolation(system.token)
    let reason = violation.map {
      "parameter 'token' \($0) (a token of os '\(system.os)' must be 1 to 4096 characters of "
        + "A-Z, a-z, 0-9, _ : . -)"
    }
    switch mode {
    case .strict where reason != nil:
      try Self.expectRefused(reply, reason ?? "", server: server, before: before)
    case .strict, .lenient:
      #expect(reply.status == 200)
      #expect(try server.lastWarnings() == (reason.map { [$0] } ?? []))
      let client = try #require(try server.clients().first)
      #expect(client["os"] as? String == system.os)
      #expect(client["token"] as? String == system.token)
      #expect(try server.post("cmd=mapping&\(phone)&uid=\(Self.uids[1])").status == 200)
      #expect(try server.get("cmd=event&uid=\(Self.uids[1])&event_type=1").status == 200)
      let notification = try #require(try server.notifications().first)
      #expect(notification["os"] as? String == system.os)
      #expect(notification["token"] as? String == system.token)
    }
  }

  // MARK: udid values that are not tokens

  @Test(
    "an iOS udid that is identifierForVendor, not the token, is canonical", arguments: Mode.allCases
  )
  func vendorUDID(mode: Mode) throws {
    let server = try mode.server()
    let phone = "os=ios&appid=\(Self.cameraApp)&udid=\(Self.vendorUUID)"
    #expect(try server.get("cmd=client&\(phone)&token=\(Self.iOSToken)").status == 200)
    let map = Self.encoded(MapPayload.encode([Self.uids[0]]))
    #expect(try server.get("cmd=mapsync&\(phone)&map=\(map)").status == 200)
    #expect(try server.uids(of: Self.vendorUUID) == [Self.uids[0]])
    #expect(try server.requests().map { $0["warnings"] as? [String] } == [[], []])
  }

  @Test(
    "a udid of a UUID, '+' and a timestamp sent raw (the '+' arrives as a space): one phone, with a warning; --strict 400",
    arguments: Mode.allCases)
  func udidWithSpace(mode: Mode) throws {
    let server = try mode.server()
    let raw = "\(Self.vendorUUID)+1700000000"
    let phone = "os=ios&appid=\(Self.cameraApp)&udid=\(raw)"
    let before = try server.registryText()
    let reply = try server.get("cmd=client&\(phone)&token=\(Self.iOSToken)")
    let reason =
      "parameter 'udid' has ' ' at position 37, which is not allowed "
      + "(a '+' sent unencoded arrives as a space)"
    switch mode {
    case .lenient:
      #expect(reply.status == 200)
      #expect(try server.lastWarnings() == [reason])
      let received = "\(Self.vendorUUID) 1700000000"
      #expect(try server.clients().map { $0["udid"] as? String } == [received])
      // The app sends the same raw udid every time: it is the same phone.
      let map = Self.encoded(MapPayload.encode([Self.uids[0]]))
      #expect(try server.get("cmd=mapsync&\(phone)&map=\(map)").status == 200)
      #expect(try server.uids(of: received) == [Self.uids[0]])
    case .strict:
      try Self.expectRefused(reply, reason, server: server, before: before)
    }
  }
}
