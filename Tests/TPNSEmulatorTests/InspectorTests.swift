import Foundation
import Testing

@testable import TPNSEmulator

@Suite("Inspector: the /_emulator/ endpoints")
struct InspectorTests {
  @Test("health answers JSON")
  func health() throws {
    let server = try TestEmulator()
    let reply = try server.inspect("health")
    #expect(reply.status == 200)
    #expect(reply.headers["content-type"] == "application/json")
    let json = try #require(reply.json as? [String: Any])
    #expect(json["status"] as? String == "ok")
    #expect(json["database"] as? String == ":memory:")
    #expect(json["error"] is NSNull)
  }

  @Test("requests logs every /tpns request: method, decoded parameters, status, warnings")
  func requests() throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    _ = try server.post("cmd=device&uid=\(TestEmulator.uid(1))&bogus=1")
    _ = try RawHTTPClient.send(port: server.port, target: "/tpns?cmd=x&lang=%zz")
    _ = try server.inspect("health")  // not logged: not /tpns

    let json = try #require(try server.inspect("requests").json as? [String: Any])
    #expect(json["total"] as? Int == 3)
    #expect(json["dropped"] as? Int == 0)
    let entries = try #require(json["requests"] as? [[String: Any]])
    #expect(entries.map { $0["method"] as? String } == ["GET", "POST", "GET"])
    #expect(entries.map { $0["status"] as? Int } == [200, 200, 400])
    #expect(entries.map { $0["seq"] as? Int } == [1, 2, 3])
    let first = try #require(entries.first?["params"] as? [String: String])
    #expect(
      first == [
        "cmd": "client", "os": "ios", "appid": TestEmulator.appid, "udid": token, "token": token,
      ])
    #expect(entries.first?["error"] is NSNull)
    #expect(entries.first?["warnings"] as? [String] == [])
    #expect(entries[1]["error"] is NSNull)
    #expect(
      entries[1]["warnings"] as? [String]
        == ["unknown parameter 'bogus' for cmd=device (known: uid) (recorded)"])
    #expect((entries[2]["error"] as? String)?.contains("bad percent-escape") == true)
    #expect(entries.first?["truncated"] is NSNull)
    #expect(entries[2]["params"] is NSNull)
    #expect(entries[2]["raw"] as? String == "cmd=x&lang=%zz")
  }

  @Test("faults: the next N requests answer the status, with Retry-After")
  func faults() throws {
    let server = try TestEmulator()
    let armed = try server.inspect("faults?status=503&count=2&retry_after=1", method: "POST")
    #expect(armed.status == 200)
    let fault = (armed.json as? [String: Any])?["fault"] as? [String: Any]
    #expect(fault?["status"] as? Int == 503)
    #expect(fault?["remaining"] as? Int == 2)

    let query = "cmd=device&uid=\(TestEmulator.uid(1))"
    for _ in 0..<2 {
      let reply = try server.get(query)
      #expect(reply.status == 503)
      #expect(reply.headers["retry-after"] == "1")
      #expect(reply.body.hasPrefix("error: injected fault"))
    }
    #expect(try server.get(query).status == 200)
    let log = try server.inspect("requests").json as? [String: Any]
    let statuses = (log?["requests"] as? [[String: Any]])?.map { $0["status"] as? Int }
    #expect(statuses == [503, 503, 200])
    // The faulted requests changed nothing: only the last one announced the device.
    let devices =
      (try server.inspect("registry").json as? [String: Any])?["devices"] as? [[String: Any]]
    #expect(devices?.first?["announcements"] as? Int == 1)
  }

  @Test("a fault without retry_after sends no Retry-After")
  func faultWithoutRetryAfter() throws {
    let server = try TestEmulator()
    _ = try server.inspect("faults?status=500", method: "POST")
    let reply = try server.get("cmd=device&uid=\(TestEmulator.uid(1))")
    #expect(reply.status == 500)
    #expect(reply.headers["retry-after"] == nil)
  }

  @Test("faults refuses a status outside 400-599", arguments: ["200", "600", "abc", ""])
  func badFault(status: String) throws {
    let server = try TestEmulator()
    let reply = try server.inspect("faults?status=\(status)", method: "POST")
    #expect(reply.status == 400)
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(1))").status == 200)
  }

  @Test("GET faults with settings says to POST them, and arms nothing")
  func getFaultsSaysPost() throws {
    let server = try TestEmulator()
    let reply = try server.inspect("faults?status=503&count=2")
    #expect(reply.status == 400)
    #expect(
      reply.body
        == "error: GET /_emulator/faults only shows the armed rules; to arm one, POST "
        + "/_emulator/faults?status=…&count=…&cmd=…&probability=…&seed=…&delay_ms=…\n")
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(1))").status == 200)
    // Other parameters are still refused by name.
    #expect(try server.inspect("faults?x=1").body.contains("unknown parameter 'x'"))
  }

  @Test(
    "a body over 1 MiB to a knob is refused and turns nothing",
    arguments: ["reset", "faults?status=503&count=9"])
  func oversizedBody(target: String) throws {
    let server = try TestEmulator()
    try server.registerIOS()
    let before = try server.registryText()
    let body = Array("x=".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20)
    let reply = try RawHTTPClient.send(
      port: server.port, method: "POST", target: "/_emulator/\(target)", body: body)
    #expect(reply.status == 413)
    #expect(try server.registryText() == before)
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(1))").status == 200)
  }

  @Test("reset empties the registry, the log and the faults")
  func reset() throws {
    let server = try TestEmulator()
    try server.registerIOS()
    _ = try server.inspect("faults?status=503&count=5", method: "POST")
    let reply = try server.inspect("reset", method: "POST")
    #expect(reply.status == 200)
    #expect(try server.clients().isEmpty)
    let log = try server.inspect("requests").json as? [String: Any]
    #expect(log?["total"] as? Int == 0)
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(1))").status == 200)
  }

  @Test(
    "each endpoint refuses other methods with 405 and Allow",
    arguments: [
      ("health", "POST", "GET, HEAD"), ("registry", "DELETE", "GET, HEAD"),
      ("requests", "POST", "GET, HEAD, DELETE"), ("notifications", "PUT", "GET, HEAD"),
      ("reset", "GET", "POST"), ("reset", "HEAD", "POST"),
      ("faults", "PUT", "GET, HEAD, POST, DELETE"),
    ])
  func methods(endpoint: String, method: String, allowed: String) throws {
    let server = try TestEmulator()
    let reply = try server.inspect(endpoint, method: method)
    #expect(reply.status == 405)
    #expect(reply.headers["allow"] == allowed)
  }

  @Test(
    "HEAD is answered wherever GET is: GET's status and headers, no body",
    arguments: ["health", "registry", "requests", "notifications?udid=x", "faults", "nothing"])
  func head(path: String) throws {
    let server = try TestEmulator()
    try server.registerIOS()
    let get = try server.inspect(path)
    let head = try server.inspect(path, method: "HEAD")
    #expect(head.status == get.status)
    #expect(head.headers["content-type"] == get.headers["content-type"])
    // A streamed body (requests) is chunked, with no length; the others have theirs.
    #expect(head.headers["transfer-encoding"] == get.headers["transfer-encoding"])
    #expect(head.headers["content-length"] == get.headers["content-length"])
    if get.headers["transfer-encoding"] == nil {
      #expect(get.headers["content-length"] == String(get.body.utf8.count))
    }
    #expect(head.body == "")
  }

  /// The sequence numbers of a page of `requests`, with its `next`, `total`, `dropped`.
  static func page(_ server: TestEmulator, _ query: String = "") throws -> (
    seqs: [Int], next: Int?, total: Int?, dropped: Int?
  ) {
    let reply = try server.inspect("requests" + query)
    let json = try #require(reply.json as? [String: Any], "\(reply.status) \(reply.body)")
    let entries = try #require(json["requests"] as? [[String: Any]])
    return (
      entries.compactMap { $0["seq"] as? Int }, json["next"] as? Int, json["total"] as? Int,
      json["dropped"] as? Int
    )
  }

  @Test("requests pages: the newest 100 by default, then since= and limit= for the rest")
  func requestsPages() throws {
    let server = try TestEmulator()
    for number in 1...250 {
      _ = try server.get("cmd=device&uid=\(TestEmulator.uid(number))")
    }
    let newest = try Self.page(server)
    #expect(newest.seqs == Array(151...250))
    #expect(newest.next == nil)
    #expect(newest.total == 250)
    #expect(newest.dropped == 0)
    // From the start, following `next`.
    var seqs: [Int] = []
    var since: Int? = 0
    var pages = 0
    while let after = since, pages < 10 {
      let page = try Self.page(server, "?since=\(after)&limit=100")
      seqs += page.seqs
      since = page.next
      pages += 1
    }
    #expect(pages == 3)
    #expect(seqs == Array(1...250))
    #expect(try Self.page(server, "?since=250").seqs == [])
    #expect(try Self.page(server, "?limit=1000").seqs == Array(1...250))
    #expect(try Self.page(server, "?limit=1").seqs == [250])
  }

  @Test(
    "requests refuses a bad since or limit",
    arguments: ["since=-1", "since=x", "since=", "limit=0", "limit=1001", "limit=1.5", "page=2"])
  func requestsBadQuery(query: String) throws {
    let server = try TestEmulator()
    let reply = try server.inspect("requests?\(query)")
    #expect(reply.status == 400)
    #expect(reply.body.hasPrefix("error: "))
  }

  /// Ten clients reading the log of ten 1 MiB requests held 454 MB: the log kept each
  /// body whole and decoded it whole (a 44 MB answer, built once per client).
  @Test("a 1 MiB request is logged as a few KiB, and the note says what was cut")
  func requestsBounded() throws {
    let server = try TestEmulator()
    // Control characters are sent raw: each becomes six bytes of JSON (\u0001).
    let body = Array("cmd=x&a=".utf8) + [UInt8](repeating: 1, count: (1 << 20) - 8)
    let refused = try RawHTTPClient.send(
      port: server.port, method: "POST", target: "/tpns", body: body)
    #expect(refused.status == 400)
    let reply = try server.inspect("requests")
    #expect(reply.body.utf8.count < 64 * 1024)
    let json = try #require(reply.json as? [String: Any])
    let entry = try #require((json["requests"] as? [[String: Any]])?.first)
    #expect((entry["raw"] as? String)?.utf8.count == RequestLogEntry.keptFormBytes)
    let parameters = try #require(entry["params"] as? [String: String])
    #expect(parameters["cmd"] == "x")
    #expect(parameters["a"] == String(repeating: "\u{1}", count: RequestLogEntry.keptValueBytes))
    let truncated = try #require(entry["truncated"] as? [String: Any])
    #expect(truncated["bytes"] as? Int == 1 << 20)
    #expect(truncated["values"] as? [String: Int] == ["a": (1 << 20) - 8])
    #expect(truncated["left_out"] as? Int == 0)
  }

  @Test(
    "count=0 and DELETE disarm the fault (no status needed)",
    arguments: [
      ("POST", "faults?count=0"), ("POST", "faults?status=503&count=0"), ("DELETE", "faults"),
    ])
  func disarm(method: String, path: String) throws {
    let server = try TestEmulator()
    _ = try server.inspect("faults?status=503&count=5", method: "POST")
    let reply = try server.inspect(path, method: method)
    #expect(reply.status == 200)
    #expect(reply.body == "{\n  \"fault\" : null,\n  \"rules\" : [\n\n  ]\n}\n")
    #expect(try server.inspect("faults").body == reply.body)
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(1))").status == 200)
  }

  @Test(
    "a disarm with a bad setting is refused and leaves the fault armed",
    arguments: [
      ("POST", "faults?count=0&status=200"), ("POST", "faults?count=0&retry_after=x"),
      ("DELETE", "faults?count=0"),
    ])
  func badDisarm(method: String, path: String) throws {
    let server = try TestEmulator()
    _ = try server.inspect("faults?status=503", method: "POST")
    #expect(try server.inspect(path, method: method).status == 400)
    #expect(try server.get("cmd=device&uid=\(TestEmulator.uid(1))").status == 503)
  }

  @Test("notifications refuses an unknown filter")
  func notificationsFilter() throws {
    let server = try TestEmulator()
    #expect(try server.inspect("notifications?uid=X").status == 400)
  }
}
