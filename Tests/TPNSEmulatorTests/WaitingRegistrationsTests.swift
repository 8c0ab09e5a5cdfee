import Testing

@testable import TPNSEmulator

/// The packed waiting registrations give back each record as it was appended or
/// last replaced, whether its texts fit in place or not.
@Suite("WaitingRegistrations: packed records")
struct WaitingRegistrationsTests {
  static func record(udid: String, token: String?, lang: String?, extra: String?, at time: Int64)
    -> ClientRecord
  {
    ClientRecord(
      os: "android", appid: "com.example.app", udid: udid, token: token, lang: lang,
      dev: time % 2 == 0 ? nil : time, bgfetch: time % 3 == 0 ? 1 : nil, extra: extra,
      registeredAt: time, lastSeen: time)
  }

  static let first = record(udid: "udid-1", token: "token-1", lang: "en", extra: nil, at: 1)
  static let second = record(udid: "udid-2", token: nil, lang: nil, extra: "{\"a\":1}", at: 2)

  @Test(
    "a replaced record reads back as the new one, the others unchanged",
    arguments: [
      record(udid: "udid-1", token: "token-1", lang: "ja", extra: nil, at: 3),  // same lengths
      record(udid: "udid-1", token: "token-10", lang: "en", extra: nil, at: 4),  // longer
      record(udid: "udid-1", token: nil, lang: nil, extra: "{}", at: 5),  // nils
    ])
  func replace(_ replacement: ClientRecord) {
    var waiting = WaitingRegistrations()
    waiting.append(Self.first, tokenKey: "token-1", isNew: true)
    waiting.append(Self.second, tokenKey: "key-2", isNew: false)
    waiting.replace(0, with: replacement, tokenKey: replacement.token ?? "none")
    #expect(waiting.count == 2)
    #expect(waiting[0].record == replacement)
    #expect(waiting[0].tokenKey == replacement.token ?? "none")
    #expect(waiting[0].isNew)  // as before
    #expect(waiting[1].record == Self.second)
    #expect(waiting[1].tokenKey == "key-2")
    #expect(!waiting[1].isNew)
    #expect(
      waiting.matches(
        0, appid: "com.example.app", udid: "udid-1", tokenKey: replacement.token ?? "none"))
    #expect(!waiting.matches(0, appid: "com.example.app", udid: "udid-2", tokenKey: "key-2"))
    #expect(waiting.matches(1, appid: "com.example.app", udid: "udid-2", tokenKey: "key-2"))
  }
}
