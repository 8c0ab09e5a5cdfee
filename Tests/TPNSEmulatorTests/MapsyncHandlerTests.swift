import Foundation
import TPNSProtocol
import Testing

@testable import TPNSEmulator

@Suite("cmd=mapsync")
struct MapsyncHandlerTests {
  /// The quickstart's JSON, as SwiftyJSON's `rawString()` pretty-printed it.
  static func quickstartJSON(_ uids: [String]) -> String {
    "[\n" + uids.map { "  {\n    \"uid\" : \"\($0)\"\n  }" }.joined(separator: ",\n") + "\n]"
  }

  @Test("the quickstart's exact requests are accepted and map exactly its UIDs")
  func quickstart() throws {
    let server = try TestEmulator()
    let token = TestEmulator.token(0x5EED)
    let register = try server.get(
      "cmd=client&os=ios&appid=com.tutk.cc.samples.tpns.ios&udid=\(token)&token=\(token)")
    #expect(register.status == 200)
    let uids = [TestEmulator.uid(1), TestEmulator.uid(2), TestEmulator.uid(3)]
    let map = Data(Self.quickstartJSON(uids).utf8).base64EncodedString()
    let reply = try server.get(
      "cmd=mapsync&os=ios&appid=com.tutk.cc.samples.tpns.ios&udid=\(token)"
        + "&map=\(TestEmulator.percentEncoded(map))")
    #expect(reply.status == 200)
    #expect(reply.body == "200 ok: 3 UIDs mapped\n")
    #expect(try server.uids(of: token) == uids)
  }

  @Test("a map sent without percent-encoding ('=' padding as is) is accepted")
  func unencoded() throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let list = [TestEmulator.uid(1)]
    let map = Data(Self.quickstartJSON(list).utf8).base64EncodedString()
    #expect(map.hasSuffix("="))
    let reply = try server.get(
      "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map=\(map)")
    #expect(reply.status == 200)
    #expect(try server.uids(of: token) == list)
  }

  @Test("a '+' sent unencoded (read as a space) is taken back as '+'")
  func laxPlus() throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    // Valid UIDs never give a '+' in base64 ('>' or '~' does): the payload decodes,
    // and is then refused for its UID, not for its base64.
    let map = Data(#"[{"uid":"AA>"}]"#.utf8).base64EncodedString()
    #expect(map.contains("+"))
    let reply = try server.get(
      "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map=\(map)")
    #expect(reply.status == 400)
    #expect(reply.body.contains("map entry 0 'AA>' is not a device UID"))
  }

  @Test(
    "compact JSON by POST replaces the whole set, in order", arguments: TestEmulator.Method.allCases
  )
  func replaces(method: TestEmulator.Method) throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let prefix = "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map="
    let first = [TestEmulator.uid(1), TestEmulator.uid(2)]
    #expect(try server.send(method, prefix + TestEmulator.map(first)).status == 200)
    let second = [TestEmulator.uid(3), TestEmulator.uid(1)]
    #expect(try server.send(method, prefix + TestEmulator.map(second)).status == 200)
    #expect(try server.uids(of: token) == second)
  }

  @Test("duplicates are dropped, the first occurrence kept")
  func dedups() throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let uids = [TestEmulator.uid(2), TestEmulator.uid(1), TestEmulator.uid(2)]
    let reply = try server.post(
      "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map=\(TestEmulator.map(uids))")
    #expect(reply.body == "200 ok: 2 UIDs mapped\n")
    #expect(try server.uids(of: token) == [TestEmulator.uid(2), TestEmulator.uid(1)])
  }

  @Test("an empty list clears the set")
  func emptyList() throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let prefix = "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map="
    _ = try server.post(prefix + TestEmulator.map([TestEmulator.uid(1)]))
    let reply = try server.post(prefix + TestEmulator.map([]))
    #expect(reply.status == 200)
    #expect(try server.uids(of: token).isEmpty)
  }

  @Test("10,000 UIDs are accepted by POST")
  func largestList() throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let uids = (0..<10_000).map(TestEmulator.uid)
    let reply = try server.post(
      "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map=\(TestEmulator.map(uids))")
    #expect(reply.status == 200)
    #expect(try server.uids(of: token).count == 10_000)
  }

  @Test("a udid that never registered is refused")
  func unregistered() throws {
    let server = try TestEmulator()
    let reply = try server.post(
      "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(TestEmulator.token(9))"
        + "&map=\(TestEmulator.map([TestEmulator.uid(1)]))")
    #expect(reply.status == 400)
    #expect(reply.body.contains("is not registered"))
    #expect(try server.clients().isEmpty)
  }
}
