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
    #expect(one.body == "200 ok: unregistered successfully. \(TestEmulator.uid(1)) unmapped\n")
    #expect(try server.uids(of: token) == [TestEmulator.uid(2), TestEmulator.uid(3)])
    let all = try server.send(method, "cmd=unreg_mapping&\(Self.phone)")
    #expect(all.body == "200 ok: unregistered successfully. 2 UIDs unmapped\n")
    #expect(try server.uids(of: token).isEmpty)
  }

  @Test("a phone that never registered cannot map")
  func unregistered() throws {
    let server = try TestEmulator()
    let reply = try server.post("cmd=mapping&\(Self.phone)&uid=\(TestEmulator.uid(1))")
    #expect(reply.status == 400)
    #expect(try server.uids(of: TestEmulator.token(1)).isEmpty)
  }

  /// An Android phone `phone-one` registered with `os`, the quickstart's Android appid.
  static func android(_ os: String) -> String {
    "os=\(os)&appid=com.example.app&udid=phone-one"
  }

  @Test(
    "a phone is its appid and udid: after a cmd=client with another os updated it in place, a command with the former os acts on that phone, with a warning"
  )
  func anotherOS() throws {
    let server = try TestEmulator()
    let register = { (os: String) in
      try server.get("cmd=client&\(Self.android(os))&token=android-token-one")
    }
    #expect(try register("android").status == 200)
    let uids = [TestEmulator.uid(1), TestEmulator.uid(2)]
    for uid in uids {
      #expect(try server.get("cmd=mapping&\(Self.android("android"))&uid=\(uid)").status == 200)
    }
    let updated = try register("huawei")
    #expect(updated.body == "200 ok: client updated\n")
    #expect(try server.clients().map { $0["os"] as? String } == ["huawei"])
    #expect(try server.uids(of: "phone-one") == uids, "the upsert keeps the phone's mappings")
    // With the os it has now: no warning.
    let mapped = try server.get("cmd=mapping&\(Self.android("huawei"))&uid=\(uids[0])")
    #expect(mapped.status == 200)
    #expect(try server.lastWarnings() == [])
    // With the os it had: the same phone, not a 400.
    let unmapped = try server.get("cmd=unreg_mapping&\(Self.android("android"))&uid=\(uids[0])")
    #expect(unmapped.status == 200, "\(unmapped.body)")
    #expect(
      try server.lastWarnings() == [
        "os 'android' does not match the registration of this udid (os 'huawei') "
          + "(taken as that phone)"
      ])
    #expect(try server.uids(of: "phone-one") == [uids[1]])
  }

  @Test(
    "strict: a command with another os than the phone registered with is refused (400), changing nothing"
  )
  func anotherOSStrict() throws {
    let server = try TestEmulator(strict: true)
    #expect(
      try server.get("cmd=client&\(Self.android("huawei"))&token=android-token-one").status == 200)
    let uid = TestEmulator.uid(1)
    #expect(try server.get("cmd=mapping&\(Self.android("huawei"))&uid=\(uid)").status == 200)
    let before = try server.registryText()
    for command in ["cmd=unreg_mapping", "cmd=rm_mapping&uid=\(uid)", "cmd=mapping&uid=\(uid)"] {
      let reply = try server.get("\(command)&\(Self.android("android"))")
      #expect(reply.status == 400)
      #expect(reply.body.contains("does not match the registration"))
    }
    #expect(try server.registryText() == before)
  }
}
