import Foundation
import Testing

@testable import TPNSEmulator

extension EventHandlerTests {
  @Test("an empty msg is taken as no message, with a warning that says so; --strict refuses it")
  func emptyMessage() throws {
    let server = try TestEmulator()
    let uid = TestEmulator.uid(1)
    let token = try server.registerIOS()
    let map = TestEmulator.map([uid])
    _ = try server.post("cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map=\(map)")
    #expect(try server.post("cmd=event&uid=\(uid)&event_type=1&msg=").status == 200)
    let all = try server.inspect("notifications").json as? [String: Any]
    let records = try #require(all?["notifications"] as? [[String: Any]])
    #expect(records.count == 1)
    #expect(records.first?["msg"] is NSNull)
    let warnings = try server.requests().last?["warnings"] as? [String]
    #expect(warnings == ["parameter 'msg' is empty (taken as not sent)"])
    let strict = try TestEmulator(strict: true)
    #expect(try strict.post("cmd=event&uid=\(uid)&event_type=1&msg=").status == 400)
  }
}
