import Foundation
import Testing

@testable import TPNSEmulator

@Suite("cmd=client")
struct ClientHandlerTests {
  @Test("registers a phone by GET query or POST form", arguments: TestEmulator.Method.allCases)
  func registers(method: TestEmulator.Method) throws {
    let server = try TestEmulator()
    let token = TestEmulator.token(0xABC)
    let reply = try server.send(
      method,
      "cmd=client&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&token=\(token)&lang=en&dev=1")
    #expect(reply.status == 200)
    #expect(reply.body == "200 ok: client registered\n")
    let clients = try server.clients()
    #expect(clients.count == 1)
    #expect(clients.first?["os"] as? String == "ios")
    #expect(clients.first?["appid"] as? String == TestEmulator.appid)
    #expect(clients.first?["udid"] as? String == token)
    #expect(clients.first?["token"] as? String == token)
    #expect(clients.first?["lang"] as? String == "en")
    #expect(clients.first?["dev"] as? Int == 1)
    #expect(clients.first?["last_seen"] is String)
  }

  @Test("a second identical client is an update, not a second phone")
  func isIdempotent() throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let again = try server.get(
      "cmd=client&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&token=\(token)&lang=fr")
    #expect(again.status == 200)
    #expect(again.body == "200 ok: client updated\n")
    let clients = try server.clients()
    #expect(clients.count == 1)
    #expect(clients.first?["lang"] as? String == "fr")
  }

  @Test("the same udid under another appid is another phone")
  func keysOnAppIDAndUDID() throws {
    let server = try TestEmulator()
    let udid = "android-1"
    _ = try server.post("cmd=client&os=android&appid=a.one&udid=\(udid)&token=fcm:one")
    _ = try server.post("cmd=client&os=android&appid=a.two&udid=\(udid)&token=fcm:two")
    #expect(try server.clients().count == 2)
  }

  @Test("a token claimed by a new udid moves to it")
  func tokenMoves() throws {
    let server = try TestEmulator()
    let old = try server.post("cmd=client&os=android&appid=a.b&udid=first&token=fcm-token")
    #expect(old.status == 200)
    let new = try server.post("cmd=client&os=android&appid=a.b&udid=second&token=fcm-token")
    #expect(new.status == 200)
    let clients = try server.clients()
    let byUDID = Dictionary(
      uniqueKeysWithValues: clients.map { ($0["udid"] as? String ?? "", $0) })
    #expect(byUDID["second"]?["token"] as? String == "fcm-token")
    #expect(byUDID["first"]?["token"] is NSNull)
  }

  @Test("iOS tokens are compared without regard to case")
  func iOSTokenCase() throws {
    let server = try TestEmulator()
    let lower = String(repeating: "ab", count: 32)
    let upper = lower.uppercased()
    _ = try server.get("cmd=client&os=ios&appid=a.b&udid=one&token=\(lower)")
    _ = try server.get("cmd=client&os=ios&appid=a.b&udid=two&token=\(upper)")
    let clients = try server.clients()
    let withToken = clients.filter { $0["token"] is String }
    #expect(withToken.count == 1)
    #expect(withToken.first?["udid"] as? String == "two")
    #expect(withToken.first?["token"] as? String == upper)
  }

  @Test("an Android token with FCM's characters is accepted")
  func androidToken() throws {
    let server = try TestEmulator()
    let reply = try server.post(
      "cmd=client&os=android&appid=com.example&udid=id-42&token=cX1_y:APA91b-Q.z&bgfetch=0")
    #expect(reply.status == 200)
    #expect(try server.clients().first?["token"] as? String == "cX1_y:APA91b-Q.z")
  }
}
