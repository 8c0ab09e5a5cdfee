import Foundation
import TPNSTestSupport
import Testing

/// A phone registered again at a server before its former mappings there were
/// removed, against a real emulator: what the server holds for it is unknown, and
/// the next sync leaves exactly the store's list and settings there.
@Suite struct FormerPhoneEndToEndTests {
  static let android = "com.tutk.cc.samples.tpns.android"
  static let (f1, f2) = ("FORMERPHONE000000001", "FORMERPHONE000000002")

  static func register(_ udid: String, _ e2e: EndToEnd) throws -> Int32 {
    try e2e.tpns.run(["register", "--os", "android", "--udid", udid, "android-token-\(udid)"])
      .status
  }

  @Test(
    "settings cleared while another phone was registered are cleared at the server too, once the former phone is back"
  )
  func settingsClearedAfterSwitchBack() throws {
    let e2e = try EndToEnd()
    #expect(try Self.register("phone-a", e2e) == 0)
    let add = try e2e.tpns.run(["add", "--interval", "30", "--format", "fmt %s", Self.f1, Self.f2])
    #expect(add.status == 0, "\(add.stderr)")
    // phone-a's mappings cannot be removed while phone-b is registered.
    _ = try e2e.server.inspect("faults?status=503&count=100&cmd=unreg_mapping", method: .post)
    #expect(try Self.register("phone-b", e2e) != 0)
    #expect(
      try e2e.tpns.run(["add", "--no-sync", "--no-interval", "--no-format", Self.f1]).status == 0)
    _ = try Self.register("phone-a", e2e)
    let status = try e2e.tpns.run(["status"])
    #expect(status.stdout.contains("the server's list is unknown"), "\(status.stdout)")
    try e2e.server.disarmFault()

    let sync = try e2e.tpns.run(["sync"])
    #expect(sync.status == 0, "\(sync.stderr)")
    let mappings = try e2e.server.registry().mappings.filter { $0.udid == "phone-a" }
    #expect(
      Set(mappings)
        == [
          .init(appID: Self.android, udid: "phone-a", uid: Self.f1),
          .init(appID: Self.android, udid: "phone-a", uid: Self.f2, interval: 30, format: "fmt %s"),
        ])
    #expect(try e2e.server.registry().mappings.allSatisfy { $0.udid == "phone-a" })
    #expect(try e2e.tpns.run(["status"]).stdout.contains("no, the server has the list"))
  }
}
