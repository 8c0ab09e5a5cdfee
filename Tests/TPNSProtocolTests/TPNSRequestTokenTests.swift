import Testing

@testable import TPNSKit

/// Which requests carry the token: what the cleartext warning is about (issue 13, point 1).
@Suite struct CommandTokenTests {
  static let token = String(repeating: "0f", count: 32)

  @Test("client carries it; an iOS phone's mapsync and unreg_mapping carry its udid, the token")
  func carriesToken() throws {
    let ios = Phone(os: .ios, appID: "com.example", udid: Self.token)
    let android = Phone(os: .android, appID: "com.example", udid: "phone-1")
    let customUDID = Phone(os: .ios, appID: "com.example", udid: "my-iphone")
    let uid = try DeviceUID("ABCDEFGHJKLMNPRSTUVW")
    let pushToken = try PushToken(Self.token, os: .ios)
    #expect(Command.client(ios, token: pushToken).carriesToken)
    #expect(Command.client(android, token: pushToken).carriesToken)
    #expect(Command.mapsync(ios, uids: [uid]).carriesToken)
    #expect(Command.unregisterMapping(ios).carriesToken)
    #expect(!Command.mapsync(android, uids: [uid]).carriesToken)
    #expect(!Command.mapsync(customUDID, uids: [uid]).carriesToken)
    #expect(!Command.event(uid: uid, type: 1).carriesToken)
    #expect(!Command.device(uid: uid).carriesToken)
  }
}
