import Foundation
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// The registration as stored and sent: `lang` and `dev` always (their
/// effective values), and every documented `os`.
@Suite struct PhoneRegistrationTests {
  static let token = String(repeating: "ab", count: 32)
  static let server = "http://a/tpns"

  static func load(_ body: String) throws -> StoreContents {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    try Data("<plist version=\"1.0\"><dict>\(body)</dict></plist>".utf8)
      .write(to: URL(fileURLWithPath: path))
    return try Store(path: path).load()
  }

  @Test("every client request carries lang and dev: enUS and 0 unless given")
  func clientParameters() throws {
    let token = try PushToken(Self.token, os: .ios)
    let registration = PhoneRegistration(token: token, phone: Phone(os: .ios, udid: Self.token))
    #expect(
      registration.clientRequest.formBody
        == "cmd=client&os=ios&appid=com.tutk.cc.samples.tpns.ios&udid=\(Self.token)"
        + "&token=\(Self.token)&lang=enUS&dev=0")
    let given = PhoneRegistration(
      token: token, phone: Phone(os: .ios, udid: Self.token), language: "zhTW", sandbox: true)
    #expect(given.clientRequest.formBody.hasSuffix("&lang=zhTW&dev=1"))
  }

  @Test(
    "a store written before lang and dev were always sent (no Lang, no Dev) reads as enUS and production, and the server that acknowledged it then is still registered: no re-registration after the upgrade"
  )
  func upgradedStore() throws {
    let registration = """
      <key>Token</key><string>\(Self.token)</string><key>OS</key><string>ios</string>
      """
    let state = try Self.load(
      registration
        + "<key>Servers</key><dict><key>\(Self.server)</key><dict><key>Registration</key><dict>"
        + registration + "</dict><key>UIDs</key><array/></dict></dict>")
    #expect(state.registration?.language == "enUS")
    #expect(state.registration?.sandbox == false)
    let difference = state.difference(at: Self.server)
    #expect(difference.isRegistered)
    #expect(!difference.needsRegistration)
    #expect(!difference.isPending)
  }

  @Test("Lang and Dev are always written, so that the file says what was sent")
  func written() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    let token = try PushToken(Self.token, os: .ios)
    try store.update {
      $0.registration = PhoneRegistration(token: token, phone: Phone(os: .ios, udid: Self.token))
    }
    let data = try #require(contents(of: store.path))
    let list = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    #expect(list["Lang"] as? String == "enUS")
    #expect(list["Dev"] as? Bool == false)
  }

  @Test("a Lang that is not a language tag is refused, naming the key")
  func invalidLanguage() throws {
    #expect {
      try Self.load(
        "<key>Token</key><string>\(Self.token)</string><key>Lang</key><string>en US</string>")
    } throws: { error in
      "\(error)".contains("'Lang' is not valid: has ' ' at position 3")
    }
  }

  @Test(
    "every documented os is read back; any other is refused with the documented values",
    arguments: OperatingSystem.allCases)
  func documentedOS(os: OperatingSystem) throws {
    let udid = os == .ios ? "" : "<key>UDID</key><string>phone-1</string>"
    let token = os == .ios ? Self.token : "push-token:1"
    let state = try Self.load(
      "<key>Token</key><string>\(token)</string><key>OS</key><string>\(os.rawValue)</string>"
        + udid)
    #expect(state.registration?.phone.os == os)
    #expect(state.registration?.token.rawValue == token)
  }

  @Test("an unknown os, or a phone of another os than iOS without its UDID, is refused")
  func invalidOS() throws {
    #expect {
      try Self.load(
        "<key>Token</key><string>x</string><key>OS</key><string>windows</string>")
    } throws: { error in
      "\(error)".contains(
        "'OS' is not valid: 'windows' is not one of ios, android, qqxg, baidu, jiguang, oppo, "
          + "huawei, mi, wechat")
    }
    #expect {
      try Self.load("<key>Token</key><string>x</string><key>OS</key><string>huawei</string>")
    } throws: { error in
      "\(error)".contains("'UDID' is not valid: a phone of os 'huawei' needs one")
    }
  }

  @Test(
    "a token of another push service than APNs has the generic syntax, and messages name the service",
    arguments: [
      (OperatingSystem.huawei, "", "the huawei token is empty"),
      (.oppo, "a b", "character ' ' at position 2 is not allowed in an oppo token"),
      (.mi, String(repeating: "x", count: 4097), "A mi token must be 1 to 4096 characters"),
      (.android, "=", "character '=' at position 1 is not allowed in an Android token"),
    ])
  func otherTokens(os: OperatingSystem, text: String, message: String) {
    #expect(throws: IdentifierError.self) { try PushToken(text, os: os) }
    do {
      _ = try PushToken(text, os: os)
    } catch {
      #expect(error.description.hasPrefix(message), "\(error.description)")
    }
  }

  @Test(
    "a token of another push service is kept as given (not lower-cased like an iOS one), and its phone's default appid is the Android quickstart's",
    arguments: OperatingSystem.allCases.filter { !$0.usesAPNsTokens })
  func otherTokenKept(os: OperatingSystem) throws {
    #expect(try PushToken(" Push:Token-1 ", os: os).rawValue == "Push:Token-1")
    #expect(Phone.defaultAppID(for: os) == "com.tutk.cc.samples.tpns.android")
  }
}
