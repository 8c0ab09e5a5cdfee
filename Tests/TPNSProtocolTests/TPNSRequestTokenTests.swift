import TPNSProtocol
import Testing

/// Which requests carry the token: what the cleartext warning is about.
@Suite struct TPNSRequestTokenTests {
  static let token = String(repeating: "0f", count: 32)

  @Test("client carries it; an iOS phone's mapsync and unreg_mapping carry its udid, the token")
  func carriesToken() throws {
    let ios = Phone(os: .ios, appID: "com.example", udid: Self.token)
    let android = Phone(os: .android, appID: "com.example", udid: "phone-1")
    let customUDID = Phone(os: .ios, appID: "com.example", udid: "my-iphone")
    let uid = try DeviceUID("ABCDEFGHJKLMNPRSTUVW")
    let pushToken = try PushToken(Self.token, os: .ios)
    #expect(TPNSRequest.client(ios, token: pushToken).carriesToken)
    #expect(TPNSRequest.client(android, token: pushToken).carriesToken)
    #expect(TPNSRequest.mapsync(ios, uids: [uid]).carriesToken)
    #expect(TPNSRequest.unregisterMapping(ios).carriesToken)
    #expect(!TPNSRequest.mapsync(android, uids: [uid]).carriesToken)
    #expect(!TPNSRequest.mapsync(customUDID, uids: [uid]).carriesToken)
    #expect(!TPNSRequest.event(uid: uid, type: 1).carriesToken)
    #expect(!TPNSRequest.device(uid: uid).carriesToken)
  }
}
