import Foundation
import Testing

@testable import TPNSEmulator

/// `GET /_emulator/requests` filtered, `requests/count` and `DELETE requests`: what a
/// test asserts on ("exactly one mapsync carrying UID X was answered 200").
@Suite("Inspector: the request log filtered, counted and emptied")
struct InspectorFilterTests {
  /// A phone that registers, syncs [1, 2], maps 3 on the legacy path, then a
  /// mapsync that fails (400) and an event from 2.
  static func journal() throws -> (TestEmulator, token: String) {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(token)"
    let uids = [TestEmulator.uid(1), TestEmulator.uid(2)]
    _ = try server.post("cmd=mapsync&\(phone)&map=\(TestEmulator.map(uids))")
    _ = try RawHTTPClient.send(
      port: server.port,
      target: "/apns/apns.php?cmd=reg_mapping&\(phone)&uid=\(TestEmulator.uid(3))")
    _ = try server.post("cmd=mapsync&\(phone)&map=bm90IGpzb24=")
    _ = try server.post("cmd=event&uid=\(TestEmulator.uid(2))&event_type=1")
    return (server, token)
  }

  static func sequences(_ server: TestEmulator, _ query: String) throws -> [Int] {
    let reply = try server.inspect("requests?\(query)")
    #expect(reply.status == 200, "\(reply.body)")
    let json = try #require(reply.json as? [String: Any])
    return (json["requests"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
  }

  static func count(_ server: TestEmulator, _ query: String) throws -> Int? {
    let reply = try server.inspect("requests/count?\(query)")
    #expect(reply.status == 200, "\(reply.body)")
    return (reply.json as? [String: Any])?["count"] as? Int
  }

  @Test(
    "each filter keeps the requests it names; filters combine",
    arguments: [
      ("cmd=mapsync", [2, 4]),
      ("cmd=reg_mapping", [3]),
      ("status=200", [1, 2, 3, 5]),
      ("status=400", [4]),
      ("path=/apns/apns.php", [3]),
      ("uid=\(TestEmulator.uid(1))", [2]),
      ("uid=\(TestEmulator.uid(2).lowercased())", [2, 5]),
      ("uid=\(TestEmulator.uid(3))", [3]),
      ("cmd=mapsync&status=200&uid=\(TestEmulator.uid(2))", [2]),
      ("cmd=client&status=400", []),
    ] as [(String, [Int])])
  func filters(query: String, expected: [Int]) throws {
    let (server, _) = try Self.journal()
    #expect(try Self.sequences(server, query) == expected)
    #expect(try Self.count(server, query) == expected.count)
  }

  @Test("udid matches without regard to case (iOS tokens are hex)")
  func udidFilter() throws {
    let (server, token) = try Self.journal()
    #expect(try Self.sequences(server, "udid=\(token.uppercased())") == [1, 2, 3, 4])
    #expect(try Self.count(server, "udid=\(TestEmulator.token(2))") == 0)
    #expect(try Self.count(server, "") == 5)
  }

  @Test("a filtered page: the newest without since; with since, the next page's since")
  func filteredPages() throws {
    let (server, _) = try Self.journal()
    #expect(try Self.sequences(server, "status=200&limit=2") == [3, 5])
    let first = try #require(
      try server.inspect("requests?status=200&since=0&limit=2").json
        as? [String: Any])
    #expect((first["requests"] as? [[String: Any]])?.compactMap { $0["seq"] as? Int } == [1, 2])
    #expect(first["next"] as? Int == 2)
    #expect(first["total"] as? Int == 5)
    let last = try #require(
      try server.inspect("requests?status=200&since=2&limit=2").json
        as? [String: Any])
    #expect((last["requests"] as? [[String: Any]])?.compactMap { $0["seq"] as? Int } == [3, 5])
    #expect(last["next"] is NSNull)
  }

  @Test(
    "a bad filter is a 400 naming the parameter and what it must be",
    arguments: [
      ("status=abc", "parameter 'status' must be an HTTP status from 100 to 599"),
      ("status=700", "parameter 'status' must be an HTTP status from 100 to 599"),
      ("uid=front-door", "parameter 'uid' must be a UID"),
      ("path=tpns", "parameter 'path' must start with '/'"),
      ("cmd=", "parameter 'cmd' must not be empty"),
      ("method=GET", "unknown parameter 'method'"),
    ] as [(String, String)])
  func badFilter(query: String, message: String) throws {
    let (server, _) = try Self.journal()
    for endpoint in ["requests", "requests/count"] {
      let reply = try server.inspect("\(endpoint)?\(query)")
      #expect(reply.status == 400)
      #expect(reply.body.hasPrefix("error: \(message)"), "\(reply.body)")
    }
  }

  @Test("DELETE requests empties the journal only: the registry stays, numbering starts again")
  func clearJournal() throws {
    let (server, token) = try Self.journal()
    let cleared = try server.inspect("requests", method: "DELETE")
    #expect(cleared.status == 200)
    #expect((cleared.json as? [String: Any])?["cleared"] as? Bool == true)
    #expect(try Self.count(server, "") == 0)
    #expect(Set(try server.uids(of: token)) == Set([1, 2, 3].map(TestEmulator.uid)))
    _ = try server.post("cmd=hello")
    #expect(try Self.sequences(server, "") == [1])
  }

  @Test("DELETE requests with a filter is a 400 that says it empties the whole log")
  func clearJournalWithFilter() throws {
    let (server, _) = try Self.journal()
    let reply = try server.inspect("requests?cmd=mapsync", method: "DELETE")
    #expect(reply.status == 400)
    #expect(reply.body.contains("empties the whole log and takes no filters"), "\(reply.body)")
    #expect(try Self.count(server, "") == 5)
  }

  @Test("DELETE requests from a web page of another origin is refused and empties nothing")
  func clearJournalGuarded() throws {
    let (server, _) = try Self.journal()
    let reply = try RawHTTPClient.send(
      port: server.port, method: "DELETE", target: "/_emulator/requests",
      extraHeaders: ["Origin: http://evil.example"])
    #expect(reply.status == 403)
    #expect(try Self.count(server, "") == 5)
  }
}
