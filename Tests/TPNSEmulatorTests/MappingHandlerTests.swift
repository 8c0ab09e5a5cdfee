import Testing

@testable import TPNSEmulator

@Suite("cmd=mapping, rm_mapping, unreg_mapping")
struct MappingHandlerTests {
  static let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(TestEmulator.token(1))"

  @Test(
    "mapping appends one UID, with interval and format", arguments: TestEmulator.Method.allCases)
  func mapping(method: TestEmulator.Method) throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let first = try server.send(method, "cmd=mapping&\(Self.phone)&uid=\(TestEmulator.uid(1))")
    #expect(first.status == 200)
    #expect(first.body == "200 ok: \(TestEmulator.uid(1)) mapped\n")
    let second = try server.send(
      method, "cmd=mapping&\(Self.phone)&uid=\(TestEmulator.uid(2))&interval=30&format=json")
    #expect(second.status == 200)
    let again = try server.send(method, "cmd=mapping&\(Self.phone)&uid=\(TestEmulator.uid(1))")
    #expect(again.body == "200 ok: \(TestEmulator.uid(1)) already mapped\n")
    #expect(try server.uids(of: token) == [TestEmulator.uid(1), TestEmulator.uid(2)])
  }

  @Test("rm_mapping removes one UID", arguments: TestEmulator.Method.allCases)
  func remove(method: TestEmulator.Method) throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    for number in 1...3 {
      _ = try server.send(method, "cmd=mapping&\(Self.phone)&uid=\(TestEmulator.uid(number))")
    }
    let reply = try server.send(method, "cmd=rm_mapping&\(Self.phone)&uid=\(TestEmulator.uid(2))")
    #expect(reply.status == 200)
    #expect(try server.uids(of: token) == [TestEmulator.uid(1), TestEmulator.uid(3)])
    let absent = try server.send(method, "cmd=rm_mapping&\(Self.phone)&uid=\(TestEmulator.uid(2))")
    #expect(absent.body == "200 ok: \(TestEmulator.uid(2)) was not mapped\n")
  }

  @Test(
    "unreg_mapping removes one UID, or all without uid", arguments: TestEmulator.Method.allCases)
  func unregister(method: TestEmulator.Method) throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    for number in 1...3 {
      _ = try server.send(method, "cmd=mapping&\(Self.phone)&uid=\(TestEmulator.uid(number))")
    }
    let one = try server.send(method, "cmd=unreg_mapping&\(Self.phone)&uid=\(TestEmulator.uid(1))")
    #expect(one.status == 200)
    #expect(try server.uids(of: token) == [TestEmulator.uid(2), TestEmulator.uid(3)])
    let all = try server.send(method, "cmd=unreg_mapping&\(Self.phone)")
    #expect(all.body == "200 ok: 2 UIDs unmapped\n")
    #expect(try server.uids(of: token).isEmpty)
  }

  @Test("a phone that never registered cannot map")
  func unregistered() throws {
    let server = try TestEmulator()
    let reply = try server.post("cmd=mapping&\(Self.phone)&uid=\(TestEmulator.uid(1))")
    #expect(reply.status == 400)
    #expect(try server.uids(of: TestEmulator.token(1)).isEmpty)
  }
}
