import Testing

@testable import TPNSEmulator

@Suite("cmd=device and cmd=event")
struct EventHandlerTests {
  @Test("device announces itself", arguments: TestEmulator.Method.allCases)
  func device(method: TestEmulator.Method) throws {
    let server = try TestEmulator()
    let reply = try server.send(method, "cmd=device&uid=\(TestEmulator.uid(7))")
    #expect(reply.status == 200)
    _ = try server.send(method, "cmd=device&uid=\(TestEmulator.uid(7))")
    let devices = (try server.inspect("registry").json as? [String: Any])?["devices"]
    let list = try #require(devices as? [[String: Any]])
    #expect(list.count == 1)
    #expect(list.first?["uid"] as? String == TestEmulator.uid(7))
    #expect(list.first?["announcements"] as? Int == 2)
  }

  @Test(
    "an event fans out to every phone mapped to the UID", arguments: TestEmulator.Method.allCases)
  func fanOut(method: TestEmulator.Method) throws {
    let server = try TestEmulator()
    let uid = TestEmulator.uid(1)
    var phones: [String] = []
    for number in 1...3 {
      let token = try server.registerIOS(token: TestEmulator.token(number))
      phones.append(token)
      let map = TestEmulator.map(number == 3 ? [TestEmulator.uid(2)] : [uid])
      _ = try server.post("cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map=\(map)")
    }
    let reply = try server.send(
      method, "cmd=event&uid=\(uid)&event_type=3&msg=motion+detected&event_time=1700000000")
    #expect(reply.status == 200)
    #expect(reply.body == "200 ok: 2 notifications\n")

    let first = try server.inspect("notifications?udid=\(phones[0])").json as? [String: Any]
    let records = try #require(first?["notifications"] as? [[String: Any]])
    #expect(records.count == 1)
    #expect(records.first?["uid"] as? String == uid)
    #expect(records.first?["token"] as? String == phones[0])
    #expect(records.first?["event_type"] as? Int == 3)
    #expect(records.first?["msg"] as? String == "motion detected")
    #expect(records.first?["event_time"] as? Int == 1_700_000_000)
    let third = try server.inspect("notifications?udid=\(phones[2])").json as? [String: Any]
    #expect((third?["notifications"] as? [Any])?.isEmpty == true)
    let all = try server.inspect("notifications").json as? [String: Any]
    #expect((all?["notifications"] as? [Any])?.count == 2)
    let sameApp = try server.inspect("notifications?appid=\(TestEmulator.appid)").json
    #expect(((sameApp as? [String: Any])?["notifications"] as? [Any])?.count == 2)
    let otherApp = try server.inspect("notifications?appid=com.example.other").json
    #expect(((otherApp as? [String: Any])?["notifications"] as? [Any])?.isEmpty == true)
  }

  @Test("an event for a UID nobody maps records nothing")
  func nobody() throws {
    let server = try TestEmulator()
    let reply = try server.get("cmd=event&uid=\(TestEmulator.uid(1))&event_type=1")
    #expect(reply.body == "200 ok: 0 notifications\n")
  }
}
