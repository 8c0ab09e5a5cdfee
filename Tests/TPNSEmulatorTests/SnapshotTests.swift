import Foundation
import Testing

@testable import TPNSEmulator

/// `/_emulator/snapshot`: the whole state as one document, and back.
@Suite("Snapshot: the emulator's state as one document")
struct SnapshotTests {
  /// A run: a phone with two mappings (one with settings), a device, a notification,
  /// and the whitelist on.
  static func run() throws -> TestEmulator {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(token)"
    _ = try server.post("cmd=mapping&\(phone)&uid=\(TestEmulator.uid(1))&interval=300&format=jpg")
    _ = try server.post("cmd=mapping&\(phone)&uid=\(TestEmulator.uid(2))")
    _ = try server.post("cmd=device&uid=\(TestEmulator.uid(1))&model=cam")
    _ = try server.post("cmd=event&uid=\(TestEmulator.uid(1))&event_type=2&msg=door")
    _ = try RawHTTPClient.send(
      port: server.port, method: "PUT", target: "/_emulator/whitelist",
      body: Array("\(TestEmulator.uid(1))\n\(TestEmulator.uid(2))\n".utf8),
      contentType: "text/plain")
    return server
  }

  static func put(_ server: TestEmulator, _ body: [UInt8], headers: [String] = []) throws
    -> HTTPReply
  {
    try RawHTTPClient.send(
      port: server.port, method: "PUT", target: "/_emulator/snapshot", body: body,
      contentType: "application/json", extraHeaders: headers)
  }

  @Test("GET answers the registry, the notifications and the whitelist, with a version")
  func export() throws {
    let server = try Self.run()
    let reply = try server.inspect("snapshot")
    #expect(reply.status == 200)
    #expect(reply.headers["content-type"] == "application/json")
    let json = try #require(reply.json as? [String: Any])
    #expect(json["version"] as? Int == 1)
    let mappings = try #require(json["mappings"] as? [[String: Any]])
    #expect(mappings.map { $0["uid"] as? String } == [TestEmulator.uid(1), TestEmulator.uid(2)])
    #expect(mappings.first?["interval"] as? Int == 300)
    #expect(mappings.first?["format"] as? String == "jpg")
    #expect(
      (json["devices"] as? [[String: Any]])?.first?["extra"] as? String == #"{"model":"cam"}"#)
    #expect((json["notifications"] as? [[String: Any]])?.first?["msg"] as? String == "door")
    #expect(json["whitelist"] as? [String] == [TestEmulator.uid(1), TestEmulator.uid(2)])
  }

  @Test("a snapshot PUT after a reset gives back the same state, byte for byte")
  func roundTrip() throws {
    let server = try Self.run()
    let before = try server.inspect("snapshot").body
    _ = try server.inspect("reset", method: "POST")
    _ = try RawHTTPClient.send(port: server.port, method: "DELETE", target: "/_emulator/whitelist")
    #expect(try server.registry("mappings").isEmpty)
    let put = try Self.put(server, Array(before.utf8))
    #expect(put.status == 200, "\(put.body)")
    #expect(put.body == before)
    #expect(try server.inspect("snapshot").body == before)
    #expect(try server.registry("mappings").count == 2)
  }

  @Test("a UID /tpns stored as sent in lower case is read back from the snapshot it wrote")
  func lowerCaseUIDRoundTrip() throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let uid = TestEmulator.uid(1).lowercased()
    let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(token)"
    #expect(try server.post("cmd=mapping&\(phone)&uid=\(uid)").status == 200)
    _ = try server.post("cmd=event&uid=\(uid)&event_type=2")
    let before = try server.inspect("snapshot").body
    #expect(before.contains(uid))
    _ = try server.inspect("reset", method: "POST")
    let put = try Self.put(server, Array(before.utf8))
    #expect(put.status == 200, "\(put.body)")
    #expect(try server.inspect("snapshot").body == before)
  }

  @Test(
    "a bad document is a 400 naming what is wrong, and changes nothing",
    arguments: [
      ("not json", "not a snapshot document"),
      ("{\"version\": 1}", "clients: it is missing"),
      (
        #"{"version":2,"clients":[],"mappings":[],"devices":[],"notifications":[]}"#,
        "version 2 is not one this emulator reads"
      ),
      (
        #"{"version":1,"clients":[],"mappings":[{"appid":"a","udid":"u","uid":"ABCDEFGHJKLMNPRSTUVW","created_at":1796433483022}],"devices":[],"notifications":[]}"#,
        "mapping of ABCDEFGHJKLMNPRSTUVW names phone (a, u), which is not among the clients"
      ),
      (
        #"{"version":1,"clients":[],"mappings":[],"devices":[{"uid":"front-door","announcements":1,"first_seen":1796433483022,"last_seen":1796433483022}],"notifications":[]}"#,
        "a device holds 'front-door', which is not a UID"
      ),
      (
        #"{"version":1,"clients":[{"os":"ios","appid":"a","udid":"u","registered_at":"2026-02-31T00:00:00.000Z","last_seen":1796433483022}],"mappings":[],"devices":[],"notifications":[]}"#,
        "clients[0].registered_at"
      ),
      (
        #"{"version":1,"clients":[],"mappings":[],"devices":[],"notifications":[],"whitelist":["x"]}"#,
        "the whitelist holds 'x', which is not a UID"
      ),
      (
        #"{"version":1,"clients":[],"mapings":[],"mappings":[],"devices":[],"notifications":[]}"#,
        "the document has a key 'mapings' a snapshot does not"
      ),
      (
        #"{"version":1,"clients":[{"os":"ios","appid":"a","udid":"u","intervall":5,"registered_at":1796433483022,"last_seen":1796433483022}],"mappings":[],"devices":[],"notifications":[]}"#,
        "clients[0] has a key 'intervall' a snapshot does not"
      ),
      (
        #"{"version":1,"clients":[{"os":"ios","appid":"a\u001b[2Jb","udid":"u","registered_at":1796433483022,"last_seen":1796433483022}],"mappings":[],"devices":[],"notifications":[]}"#,
        "a client holds"
      ),
      (
        #"{"version":1,"clients":[{"os":"ios","appid":"a","udid":"u","token":"","registered_at":1796433483022,"last_seen":1796433483022}],"mappings":[],"devices":[],"notifications":[]}"#,
        "a client has an empty os, appid, udid or token"
      ),
      (
        #"{"version":1,"clients":[],"mappings":[],"devices":[{"uid":"ABCDEFGHJKLMNPRSTUVW","announcements":0,"first_seen":1796433483022,"last_seen":1796433483022}],"notifications":[]}"#,
        "has 0 announcements"
      ),
    ] as [(String, String)])
  func refused(document: String, message: String) throws {
    let server = try Self.run()
    let before = try server.inspect("snapshot").body
    let reply = try Self.put(server, Array(document.utf8))
    #expect(reply.status == 400)
    #expect(reply.body.contains(message), "\(reply.body)")
    #expect(try server.inspect("snapshot").body == before)
  }

  @Test("a web page of another origin can neither PUT a snapshot nor read one")
  func guarded() throws {
    let server = try Self.run()
    let before = try server.inspect("snapshot").body
    let empty = #"{"version":1,"clients":[],"mappings":[],"devices":[],"notifications":[]}"#
    for header in ["Origin: http://evil.example", "Sec-Fetch-Site: cross-site"] {
      #expect(try Self.put(server, Array(empty.utf8), headers: [header]).status == 403)
    }
    #expect(try server.inspect("snapshot").body == before)
    // Nor can such a page, or one under a rebound name, read it: it holds tokens.
    for header in ["Origin: http://evil.example", "Sec-Fetch-Site: cross-site"] {
      let read = try RawHTTPClient.send(
        port: server.port, target: "/_emulator/snapshot", extraHeaders: [header])
      #expect(read.status == 403)
      #expect(!read.body.contains(TestEmulator.token(1)))
    }
  }

  @Test("a PUT over 1 MiB is a 413 that says how to load a larger one")
  func tooLarge() throws {
    let server = try Self.run()
    let reply = try Self.put(server, [UInt8](repeating: UInt8(ascii: " "), count: (1 << 20) + 1))
    #expect(reply.status == 413)
    #expect(reply.body.contains("--import FILE"), "\(reply.body)")
  }
}
