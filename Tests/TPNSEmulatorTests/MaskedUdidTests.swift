import Foundation
import Locking
import Testing

@testable import TPNSEmulator

/// A udid is the phone's secret on iOS (the quickstart sends the token as the udid):
/// the emulator's errors, which `tpns` prints, and its log lines name it by its last
/// six characters only, as `tpns` names a token.
@Suite("a udid in errors and log lines is masked")
struct MaskedUdidTests {
  static let token = "c0ffee00deadbeef1234567890abcdef0fedcba0987654321feedfacecafe001"
  static let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(token)"
  static let uid = TestEmulator.uid(1)

  @Test(
    "a command from an unregistered udid is refused naming it as …afe001",
    arguments: [
      "cmd=mapsync&\(phone)&map=\(TestEmulator.map([uid]))",
      "cmd=mapping&\(phone)&uid=\(uid)",
      "cmd=rm_mapping&\(phone)&uid=\(uid)",
      "cmd=unreg_mapping&\(phone)",
    ])
  func unregistered(query: String) throws {
    let lines = LockedState<[String]>([])
    let server = try TestEmulator(logger: { line in lines.withLock { $0.append(line) } })
    let reply = try server.get(query)
    #expect(reply.status == 400)
    #expect(
      reply.body
        == "error: udid '…afe001' is not registered for appid '\(TestEmulator.appid)' "
        + "(send cmd=client first)\n")
    let logged = lines.withLock { $0 }
    #expect(logged.count == 1)
    #expect(logged.first?.contains("udid '…afe001' is not registered") == true)
    // Not even a part of it: its first 8 characters appear nowhere.
    #expect(!reply.body.contains(Self.token.prefix(8)))
    #expect(logged.allSatisfy { !$0.contains(Self.token.prefix(8)) })
  }

  @Test(
    "an Android udid of up to 6 characters is shown whole, a longer one masked",
    arguments: [("abc", "abc"), ("abcdef", "abcdef"), ("android-id-1234", "…d-1234")])
  func android(udid: String, shown: String) throws {
    let server = try TestEmulator()
    let reply = try server.get(
      "cmd=unreg_mapping&os=android&appid=\(TestEmulator.appid)&udid=\(udid)")
    #expect(reply.status == 400)
    #expect(reply.body.hasPrefix("error: udid '\(shown)' is not registered"))
  }
}
