import Foundation
import TPNSProtocol
import Testing

@testable import TPNSEmulator

/// One request the emulator must refuse.
struct MalformedRequest: Sendable, CustomStringConvertible {
  var name: String
  var method = "GET"
  var target: String
  var body = ""
  var contentType: String? = "application/x-www-form-urlencoded"
  var status: Int
  /// A fragment of the one-line reason.
  var reason: String

  var description: String { name }
}

@Suite("Router: malformed requests, paths, methods, limits")
struct RouterTests {
  static let token = TestEmulator.token(1)
  static let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(token)"
  static let client = "cmd=client&\(phone)&token=\(token)"
  static let mapsync = "cmd=mapsync&\(phone)&map="

  static func base64(_ text: String) -> String {
    TestEmulator.percentEncoded(Data(text.utf8).base64EncodedString())
  }

  static func get(_ name: String, _ query: String, _ status: Int = 400, _ reason: String)
    -> MalformedRequest
  {
    MalformedRequest(name: name, target: "/tpns?\(query)", status: status, reason: reason)
  }

  /// Refused in every mode: what cannot be used (a missing or empty required
  /// parameter, a `map` that is not base64 of a JSON array of objects with a
  /// 20-character `uid`, a token that cannot be a token, an unknown `cmd`, a
  /// duplicate), and what HTTP does not allow. What is merely not canonical is in
  /// ``CompatibilityTests``.
  static let malformed: [MalformedRequest] = [
    get("no parameters", "", 400, "missing parameter 'cmd'"),
    get("no cmd", Self.phone, 400, "missing parameter 'cmd'"),
    get("unknown cmd", "cmd=register", 400, "unknown cmd 'register'"),
    get("empty cmd", "cmd=", 400, "unknown cmd ''"),
    get("client without os", "cmd=client&appid=a.b&udid=x&token=\(token)", 400, "'os'"),
    get("client without token", "cmd=client&\(phone)", 400, "missing parameter 'token'"),
    get("iOS token of 63 hex", "cmd=client&\(phone)&token=\(token.dropLast())", 400, "'token'"),
    get("iOS token with a g", "cmd=client&\(phone)&token=g\(token.dropFirst())", 400, "'g'"),
    get(
      "iOS 13 description as token", "cmd=client&\(phone)&token=%7Blength+%3D+32%7D", 400,
      "'token'"),
    get("Android token with &", "cmd=client&os=android&appid=a&udid=x&token=a%26b", 400, "'&'"),
    get("empty appid", "cmd=client&os=ios&appid=&udid=x&token=\(token)", 400, "is empty"),
    get("empty os", "cmd=client&os=&appid=a&udid=x&token=\(token)", 400, "'os' is empty"),
    get("udid with a tab", "cmd=client&os=ios&appid=a&udid=a%09b&token=\(token)", 400, "'udid'"),
    get(
      "os with a control character", "cmd=client&os=ios%01&appid=a&udid=x&token=\(token)", 400,
      "'os'"),
    get(
      "iOS token of 62 hex and a space", "cmd=client&\(phone)&token=\(token.dropLast(2))+0", 400,
      "'token'"),
    get(
      "Android token with a space", "cmd=client&os=android&appid=a&udid=x&token=a+b", 400,
      "'token'"),
    get("iOS token of 65 hex", "cmd=client&\(phone)&token=\(token)0", 400, "'token'"),
    get("empty event_type", "cmd=event&uid=\(TestEmulator.uid(1))&event_type=", 400, "is empty"),
    get("duplicate udid", "\(client)&udid=\(token)", 400, "more than once"),
    get("bad percent-escape", "\(client)&lang=%zz", 400, "bad percent-escape"),
    get("truncated percent-escape", "\(client)&lang=en%4", 400, "bad percent-escape"),
    get("non-UTF-8 byte", "\(client)&lang=%FF", 400, "not valid UTF-8"),
    get("parameter without '='", "\(client)&dev", 400, "has no '='"),
    get("empty parameter name", "\(client)&=1", 400, "empty name"),
    get("map with a bad character", "\(mapsync)W10*", 400, "not valid base64"),
    get("map of the wrong length", "\(mapsync)W10", 400, "multiple of 4"),
    get("map that is not JSON", "\(mapsync)\(base64("[{"))", 400, "not valid JSON"),
    get("map that is an object", "\(mapsync)\(base64("{\"uid\":\"A\"}"))", 400, "wrong shape"),
    get(
      "map of strings", "\(mapsync)\(base64("[\"\(TestEmulator.uid(1))\"]"))", 400, "wrong shape"),
    get("map with another key", "\(mapsync)\(base64("[{\"id\":\"X\"}]"))", 400, "wrong shape"),
    get("map with a number uid", "\(mapsync)\(base64("[{\"uid\":1}]"))", 400, "wrong shape"),
    get(
      "map with a 19-character UID", "\(mapsync)\(TestEmulator.map(["ABCDEFGHJK000000001"]))",
      400, "has 19 characters"),
    get(
      "map with a UID with a '-'", "\(mapsync)\(TestEmulator.map(["ABCDEFGHJK-000000001"]))",
      400, "not a device UID"),
    get("empty map", "\(mapsync)", 400, "'map' is empty"),
    get("map of an object without uid", "\(mapsync)\(base64("[{}]"))", 400, "an empty object"),
    get("map that is null", "\(mapsync)\(base64("null"))", 400, "wrong shape"),
    get(
      "mapsync for an unregistered udid",
      "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(TestEmulator.token(2))&map=W10%3D",
      400, "not registered"),
    get("mapping with a long UID", "cmd=mapping&\(phone)&uid=\(TestEmulator.uid(1))X", 400, "uid"),
    get("rm_mapping without uid", "cmd=rm_mapping&\(phone)", 400, "missing parameter 'uid'"),
    get(
      "event with a word as type", "cmd=event&uid=\(TestEmulator.uid(1))&event_type=abc", 400,
      "event_type"),
    get("event without uid", "cmd=event&event_type=1", 400, "missing parameter 'uid'"),
    get("device with a NUL", "cmd=device&uid=ABCDEFGHJK%0000000001", 400, "uid"),
    MalformedRequest(
      name: "POST with a JSON body", method: "POST", target: "/tpns", body: "{\"cmd\":\"client\"}",
      contentType: "application/json", status: 415,
      reason: "must be application/x-www-form-urlencoded"),
    MalformedRequest(
      name: "POST with a body and no Content-Type", method: "POST", target: "/tpns",
      body: client, contentType: nil, status: 415, reason: "undeclared"),
    MalformedRequest(
      name: "POST naming a parameter in the query and the body", method: "POST",
      target: "/tpns?cmd=client", body: client, status: 400, reason: "more than once"),
    MalformedRequest(
      name: "PUT", method: "PUT", target: "/tpns?\(client)", status: 405, reason: "PUT"),
    MalformedRequest(
      name: "DELETE", method: "DELETE", target: "/tpns", status: 405, reason: "DELETE"),
    get("unknown path", "x", 404, "no such path").with(target: "/tpnsx?\(client)"),
    get("trailing slash", "x", 404, "no such path").with(target: "/tpns/?\(client)"),
    get("unknown inspection path", "x", 404, "no such path").with(target: "/_emulator/nothing"),
  ]

  @Test(
    "a malformed request is refused with a one-line reason and changes nothing, in both modes",
    arguments: malformed, [false, true])
  func refuses(request: MalformedRequest, strict: Bool) throws {
    let server = try TestEmulator(strict: strict)
    try server.registerIOS(token: Self.token)
    _ = try server.post("\(Self.mapsync)\(TestEmulator.map([TestEmulator.uid(1)]))")
    let before = try server.registryText()

    let reply = try RawHTTPClient.send(
      port: server.port, method: request.method, target: request.target,
      body: Array(request.body.utf8), contentType: request.contentType)

    #expect(reply.status == request.status)
    #expect(reply.body.hasPrefix("error: "))
    #expect(reply.body.hasSuffix("\n"))
    #expect(reply.body.dropLast().contains("\n") == false)
    #expect(reply.body.contains(request.reason), "\(reply.body)")
    #expect(try server.registryText() == before)
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(9))").status == 200)
  }

  @Test("405 names the allowed methods in Allow")
  func allowHeader() throws {
    let server = try TestEmulator()
    let reply = try RawHTTPClient.send(port: server.port, method: "PATCH", target: "/tpns")
    #expect(reply.status == 405)
    #expect(reply.headers["allow"] == "GET, HEAD, POST")
  }

  @Test("HEAD answers 200 with headers only, runs nothing, takes no fault, and is logged")
  func head() throws {
    let server = try TestEmulator()
    _ = try server.inspect("faults?status=503", method: "POST")
    let reply = try RawHTTPClient.send(
      port: server.port, method: "HEAD", target: "/tpns?cmd=device&uid=\(TestEmulator.uid(1))")
    #expect(reply.status == 200)
    #expect(reply.body == "")
    #expect(reply.headers["allow"] == "GET, HEAD, POST")
    #expect(reply.headers["content-type"] == "text/plain; charset=utf-8")
    #expect(Self.deviceCount(server) == 0)
    // The fault is still armed for the next request that runs.
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(1))").status == 503)
    let log = try #require(try server.inspect("requests").json as? [String: Any])
    let entries = try #require(log["requests"] as? [[String: Any]])
    #expect(entries.map { $0["method"] as? String } == ["HEAD", "GET"])
    #expect(entries.map { $0["status"] as? Int } == [200, 503])
  }

  /// A query of `length` bytes in all: `cmd=device&x=aaa…`.
  static func query(length: Int) -> String {
    "cmd=device&x=" + String(repeating: "a", count: length - 13)
  }

  @Test(
    "a target over 8 KiB is 414 with the one-line reason, logged with its parameters",
    arguments: [8_193, 15_000])
  func targetTooLong(length: Int) throws {
    let server = try TestEmulator()
    let target = "/tpns?" + Self.query(length: length - 6)
    let reply = try RawHTTPClient.send(port: server.port, target: target)
    let reason =
      "the request target has \(length) bytes, more than 8192: send the parameters in a POST "
      + "form body"
    #expect(reply.status == 414)
    #expect(reply.headers["content-type"] == "text/plain; charset=utf-8")
    #expect(reply.body == "error: \(reason)\n")
    let log = try #require(try server.inspect("requests").json as? [String: Any])
    let entry = try #require((log["requests"] as? [[String: Any]])?.last)
    #expect(entry["status"] as? Int == 414)
    #expect(entry["error"] as? String == reason)
    #expect(entry["method"] as? String == "GET")
    #expect((entry["params"] as? [String: String])?["cmd"] == "device")
    #expect(Self.deviceCount(server) == 0)
  }

  @Test("a target of 8 KiB exactly is read (and refused for what it says)")
  func targetAtLimit() throws {
    let server = try TestEmulator()
    let reply = try RawHTTPClient.send(
      port: server.port, target: "/tpns?" + Self.query(length: 8_192 - 6))
    #expect(reply.status == 400)
    #expect(reply.body == "error: missing parameter 'uid' for cmd=device\n")
  }

  /// A request line or header larger than the connection's 16 KiB: libmicrohttpd
  /// answers it by itself (its own HTML body, which the emulator cannot replace), but
  /// the emulator is told, and logs it with the status answered.
  @Test(
    "a request too large for libmicrohttpd to read is logged with its status and the remedy",
    arguments: [(16_100, 431), (40_000, 414)])
  func unreadRequest(length: Int, status: Int) throws {
    let server = try TestEmulator()
    let reply = try RawHTTPClient.send(
      port: server.port, target: "/tpns?" + Self.query(length: length))
    #expect(reply.status == status)
    let log = try #require(try server.inspect("requests").json as? [String: Any])
    #expect(log["total"] as? Int == 1)
    let entry = try #require((log["requests"] as? [[String: Any]])?.first)
    #expect(entry["status"] as? Int == status)
    #expect(entry["method"] is NSNull)
    #expect(entry["path"] is NSNull)
    #expect(entry["params"] is NSNull)
    let reason = try #require(entry["error"] as? String)
    #expect(
      reason.hasPrefix(
        status == 414
          ? "the request line is longer than 16384 bytes"
          : "the request line and headers are longer than 16384 bytes"))
    #expect(reason.hasSuffix("send the parameters in a POST form body"))
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(1))").status == 200)
  }

  /// How many devices the registry holds.
  static func deviceCount(_ server: TestEmulator) -> Int? {
    let registry = (try? server.inspect("registry").json) as? [String: Any]
    return (registry?["devices"] as? [Any])?.count
  }

  @Test("a body over 1 MiB is 413 and changes nothing")
  func bodyTooLarge() throws {
    let server = try TestEmulator()
    try server.registerIOS(token: Self.token)
    let before = try server.registryText()
    let body = Array("\(Self.client)&lang=".utf8) + [UInt8](repeating: 0x61, count: 1 << 20)
    let reply = try RawHTTPClient.send(
      port: server.port, method: "POST", target: "/tpns", body: body)
    #expect(reply.status == 413)
    #expect(reply.body.contains("larger than"))
    #expect(try server.registryText() == before)
  }

  @Test("a map of more than 10,000 UIDs is 413 and changes nothing")
  func tooManyUIDs() throws {
    let server = try TestEmulator()
    try server.registerIOS(token: Self.token)
    let before = try server.registryText()
    let reply = try server.post(Self.mapsync + TestEmulator.map((0...10_000).map(TestEmulator.uid)))
    #expect(reply.status == 413)
    #expect(reply.body.contains("10001 UIDs"))
    #expect(try server.registryText() == before)
  }

  @Test("bytes that are not HTTP do not stop the server")
  func garbage() throws {
    let server = try TestEmulator()
    for junk in [
      "\u{0}\u{1}\u{2}\r\n\r\n", "GET\r\n\r\n", "GET /tpns HTTP/9.9\r\n\r\n",
      "POST /tpns HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
    ] {
      _ = try? RawHTTPClient.roundTrip(port: server.port, Array(junk.utf8), timeout: 1)
    }
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(1))").status == 200)
  }

  @Test("concurrent clients are all served")
  func concurrent() async throws {
    let server = try TestEmulator()
    let port = server.port
    let statuses = await withTaskGroup(of: [Int].self) { group in
      for worker in 0..<8 {
        group.addTask {
          (0..<25).map { index in
            let token = TestEmulator.token(worker * 100 + index)
            let reply = try? RawHTTPClient.send(
              port: port, method: "POST", target: "/tpns",
              body: Array("cmd=client&os=ios&appid=a.b&udid=\(token)&token=\(token)".utf8))
            return reply?.status ?? 0
          }
        }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    #expect(statuses.count == 200)
    #expect(statuses.allSatisfy { $0 == 200 })
    #expect(try server.clients().count == 200)
  }
}

extension MalformedRequest {
  func with(target: String) -> MalformedRequest {
    var copy = self
    copy.target = target
    return copy
  }
}
