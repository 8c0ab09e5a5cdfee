import TPNSProtocol
import Testing

@testable import TPNSKit

/// The rules about what a server holds of the store's registration
/// (`StoreContents+Reconcile.swift`), which the pipeline's steps,
/// ``StoreDifference`` and `tpns status` share.
@Suite struct StoreContentsTests {
  static let a = "http://a.test/tpns"
  static let b = "http://b.test/tpns"
  static let t1 = try! PushToken(String(repeating: "1a", count: 32), os: .ios)
  static let t2 = try! PushToken(String(repeating: "2b", count: 32), os: .ios)
  static let phone = Phone(os: .ios, udid: "phone-1")
  static let registration = PhoneRegistration(token: t1, phone: phone)

  /// `registration` with one field changed.
  static func changed(
    token: PushToken = t1, phone: Phone = phone, language: String = "enUS", sandbox: Bool = false
  ) -> PhoneRegistration {
    PhoneRegistration(token: token, phone: phone, language: language, sandbox: sandbox)
  }

  /// A store that desires `desired`, with what each server acknowledged.
  static func state(
    desired: PhoneRegistration?, acknowledged: [String: PhoneRegistration]
  ) -> StoreContents {
    var state = StoreContents()
    state.registration = desired
    state.uids = ["AAAAAAAAAAAAAAAAAAAA"]
    for (server, registration) in acknowledged {
      state.servers[server] = Acknowledgement(registration: registration, uids: state.uids)
    }
    return state
  }

  struct Registered: Sendable, CustomTestStringConvertible {
    var name: String
    var state: StoreContents
    /// Whether server A acknowledged the desired registration.
    var atA: Bool
    /// The servers that did.
    var servers: [String]
    var testDescription: String { name }
  }

  @Test(
    "registered at a server: it acknowledged the desired registration, all of it",
    arguments: [
      Registered(
        name: "exactly the desired registration",
        state: state(desired: registration, acknowledged: [a: registration]), atA: true,
        servers: [a]),
      Registered(
        name: "no token desired: registered nowhere, whatever was acknowledged",
        state: state(desired: nil, acknowledged: [a: registration]), atA: false, servers: []),
      Registered(
        name: "nothing acknowledged there",
        state: state(desired: registration, acknowledged: [:]), atA: false, servers: []),
      Registered(
        name: "another token for the same phone",
        state: state(desired: changed(token: t2), acknowledged: [a: registration]), atA: false,
        servers: []),
      Registered(
        name: "another lang",
        state: state(desired: changed(language: "zhTW"), acknowledged: [a: registration]),
        atA: false, servers: []),
      Registered(
        name: "another dev",
        state: state(desired: changed(sandbox: true), acknowledged: [a: registration]),
        atA: false, servers: []),
      Registered(
        name: "another phone (udid)",
        state: state(
          desired: changed(phone: Phone(os: .ios, udid: "phone-2")),
          acknowledged: [a: registration]), atA: false, servers: []),
      Registered(
        name: "acknowledged at another server only",
        state: state(desired: registration, acknowledged: [b: registration]), atA: false,
        servers: [b]),
      Registered(
        name: "acknowledged at both, listed in order",
        state: state(desired: registration, acknowledged: [b: registration, a: registration]),
        atA: true, servers: [a, b]),
    ])
  func registered(_ testCase: Registered) {
    #expect(testCase.state.isRegistered(at: Self.a) == testCase.atA)
    #expect(testCase.state.registeredServers == testCase.servers)
    #expect(testCase.state.difference(at: Self.a).isRegistered == testCase.atA)
    let desiresOne = testCase.state.registration != nil
    #expect(
      testCase.state.difference(at: Self.a).needsRegistration == (desiresOne && !testCase.atA))
    if let desired = testCase.state.registration {
      #expect(testCase.state.isAcknowledged(desired, at: Self.a) == testCase.atA)
      #expect(testCase.state.servers(acknowledging: desired) == testCase.servers)
    }
  }

  struct Holds: Sendable, CustomTestStringConvertible {
    var name: String
    /// What server A acknowledged, if anything.
    var acknowledged: PhoneRegistration?
    var phone: Phone?
    var holds: Bool
    var testDescription: String { name }
  }

  @Test(
    "the server still holds a phone: its acknowledged registration is for that phone, whatever the token",
    arguments: [
      Holds(name: "the same registration", acknowledged: registration, phone: phone, holds: true),
      Holds(
        name: "a new token for the same phone", acknowledged: changed(token: t2), phone: phone,
        holds: true),
      Holds(
        name: "another udid", acknowledged: registration, phone: Phone(os: .ios, udid: "phone-2"),
        holds: false),
      Holds(
        name: "another appid", acknowledged: registration,
        phone: Phone(os: .ios, appID: "com.example.other", udid: "phone-1"), holds: false),
      Holds(
        name: "another os", acknowledged: registration,
        phone: Phone(os: .android, appID: Phone.defaultAppID, udid: "phone-1"), holds: false),
      Holds(name: "nothing acknowledged", acknowledged: nil, phone: phone, holds: false),
      Holds(name: "nothing acknowledged, no phone", acknowledged: nil, phone: nil, holds: true),
      Holds(
        name: "a phone acknowledged, none asked", acknowledged: registration, phone: nil,
        holds: false),
    ])
  func holds(_ testCase: Holds) {
    let state = Self.state(
      desired: Self.registration, acknowledged: testCase.acknowledged.map { [Self.a: $0] } ?? [:])
    #expect(state.holds(testCase.phone, at: Self.a) == testCase.holds)
    // Server B acknowledged nothing: it holds no phone.
    #expect(state.holds(testCase.phone, at: Self.b) == (testCase.phone == nil))
  }

  @Test(
    "the list a server acknowledged counts only while it holds the desired phone",
    arguments: [(phone, true), (Phone(os: .ios, udid: "phone-2"), false)])
  func acknowledgedList(desiredPhone: Phone, counts: Bool) {
    let state = Self.state(
      desired: Self.changed(phone: desiredPhone), acknowledged: [Self.a: Self.registration])
    let difference = state.difference(at: Self.a)
    #expect(difference.acknowledgedUIDs == (counts ? state.uids : []))
    #expect(difference.toAdd == (counts ? [] : state.uids))
  }

  @Test(
    "the store desires a registration only while nobody stored another",
    arguments: [
      (registration as PhoneRegistration?, true), (changed(language: "zhTW"), false),
      (changed(token: t2), false), (nil, false),
    ])
  func desires(stored: PhoneRegistration?, desires: Bool) {
    let state = Self.state(desired: stored, acknowledged: [:])
    #expect(state.desires(Self.registration) == desires)
  }
}

@Suite struct StoreFormatErrorTests {
  @Test("two store errors are equal when their values are, not when their messages read alike")
  func equality() {
    let one = StoreFormatError.wrongType(key: "Token", expected: "string", found: .integer(1))
    let two = StoreFormatError.wrongType(key: "Token", expected: "string", found: .integer(2))
    #expect(one.description == two.description)
    #expect(one != two)
    #expect(one == .wrongType(key: "Token", expected: "string", found: .integer(1)))
    #expect(
      StoreFormatError.duplicateUID(key: "UIDs", text: "A", first: 0, second: 1)
        != .duplicateUID(key: "UIDs", text: "A", first: 1, second: 0))
  }

  @Test("a UID that is not one is quoted with what a terminal acts on escaped as \\u{1b}")
  func invalidUIDEscaped() {
    let error = StoreFormatError.invalidUID(
      key: "UIDs", index: 0, text: "AB\u{1B}[31mCD\u{202E}EF", reason: "bad")
    #expect(error.description == #"'UIDs' item 0 is not a UID ("AB\u{1b}[31mCD\u{202e}EF": bad)"#)
  }
}
