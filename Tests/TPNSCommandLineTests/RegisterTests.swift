import Foundation
import TPNSEmulator
import TPNSKit
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSCommandLine

/// `tpns register`: what an option not given comes to, and the hint of a bad
/// token.
@Suite struct RegisterTests {
  static let ios1 = String(repeating: "0f", count: 32)
  static let ios2 = String(repeating: "1e", count: 32)
  static let stored = PhoneRegistration(
    token: try! PushToken("fcm-token.ONE", os: .android),
    phone: Phone(os: .android, appID: "my.app", udid: "phone1"), language: "fr", sandbox: true)
  static let storedIOS = PhoneRegistration(
    token: try! PushToken(ios1, os: .ios), phone: Phone(os: .ios, udid: ios1), language: "en")

  @Test(
    "an option not given keeps the stored registration's value if the OS is the same, else the OS's default",
    arguments: [
      // Nothing stored: the defaults of the OS.
      (Register.Given(), nil, Registration(os: .ios, appID: "com.tutk.cc.samples.tpns.ios")),
      (
        Register.Given(os: .android, udid: "p"), nil,
        Registration(os: .android, appID: "com.tutk.cc.samples.tpns.android", udid: "p")
      ),
      // A refreshed Android token: everything kept.
      (
        Register.Given(), stored,
        Registration(os: .android, appID: "my.app", udid: "phone1", language: "fr", sandbox: true)
      ),
      // What is given wins.
      (
        Register.Given(appID: "other.app", udid: "phone2", language: "de", sandbox: false), stored,
        Registration(
          os: .android, appID: "other.app", udid: "phone2", language: "de", sandbox: false)
      ),
      // Another OS is another phone: the defaults, nothing of the stored one.
      (
        Register.Given(os: .ios), stored,
        Registration(os: .ios, appID: "com.tutk.cc.samples.tpns.ios")
      ),
      // iOS: the udid is the token's (nil here) unless given; lang and dev are kept.
      (
        Register.Given(), storedIOS,
        Registration(os: .ios, appID: "com.tutk.cc.samples.tpns.ios", language: "en")
      ),
      (
        Register.Given(udid: "mine"), storedIOS,
        Registration(os: .ios, appID: "com.tutk.cc.samples.tpns.ios", udid: "mine", language: "en")
      ),
      // Android without a stored Android phone: no udid (an error in run).
      (
        Register.Given(os: .android), storedIOS,
        Registration(os: .android, appID: "com.tutk.cc.samples.tpns.android")
      ),
    ] as [(Register.Given, PhoneRegistration?, Registration)])
  func resolution(given: Register.Given, stored: PhoneRegistration?, expected: Registration) {
    #expect(Register.registration(given, stored: stored) == expected)
  }

  @Test("--os android alone gets the Android default appid, not the iOS one")
  func androidDefaultAppID() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["register", "--os", "android", "--udid", "phone1", "fcm-1"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try e2e.server.requests().last?.raw
        == "cmd=client&os=android&appid=com.tutk.cc.samples.tpns.android&udid=phone1&token=fcm-1"
        + "&lang=enUS&dev=0")
  }

  @Test("a refreshed Android token needs only the token: os, udid, appid, lang and dev are kept")
  func androidTokenRefresh() throws {
    let e2e = try EndToEnd()
    let first = try e2e.tpns.run([
      "register", "--os", "android", "--udid", "phone1", "--appid", "my.app", "--lang", "fr",
      "--dev", "fcm-1",
    ])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(try e2e.tpns.run(["add", "ABCDEFGHJKLMNPRSTUVW"]).status == 0)
    let result = try e2e.tpns.run(["register", "fcm-2"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "registered fcm-2 at \(e2e.server.server)\n")
    #expect(
      try e2e.server.requests().last?.raw
        == "cmd=client&os=android&appid=my.app&udid=phone1&token=fcm-2&lang=fr&dev=1")
    #expect(try e2e.server.mappedUIDs(udid: "phone1") == ["ABCDEFGHJKLMNPRSTUVW"])
    // --no-dev turns the sandbox off, and it stays off.
    #expect(try e2e.tpns.run(["register", "fcm-3", "--no-dev"]).status == 0)
    #expect(try e2e.server.requests().last?.raw.hasSuffix("&token=fcm-3&lang=fr&dev=0") == true)
  }

  @Test("a new iOS token is a new phone (its udid is the token): the former one is unmapped")
  func iosNewToken() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", Self.ios1, "--lang", "en"]).status == 0)
    #expect(try e2e.tpns.run(["add", "ABCDEFGHJKLMNPRSTUVW"]).status == 0)
    let result = try e2e.tpns.run(["register", Self.ios2])
    #expect(result.status == 0, "\(result.stderr)")
    let raw = try e2e.server.requests().map(\.raw)
    #expect(
      raw.contains(
        "cmd=client&os=ios&appid=com.tutk.cc.samples.tpns.ios&udid=\(Self.ios2)&token=\(Self.ios2)&lang=en&dev=0"
      ))
    #expect(try e2e.server.mappedUIDs(udid: Self.ios2) == ["ABCDEFGHJKLMNPRSTUVW"])
    #expect(try e2e.server.mappedUIDs(udid: Self.ios1) == [])
  }

  @Test(
    "a bad token's next step fits the OS it was checked for",
    arguments: [
      (["register", "1234"], "An iOS token is 64 hex characters"),
      (["register", "--os", "android", "--udid", "p", "bad token"], "An Android (FCM) token is"),
    ])
  func tokenHint(arguments: [String], hint: String) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let result = try tpns.run(arguments)
    #expect(result.status == 65)
    let lines = result.stderrWithoutWarnings.split(separator: "\n")
    #expect(lines.count == 2 && lines[1].hasPrefix(hint), "\(result.stderr)")
  }

  @Test("a stored Android phone's OS is kept: an iOS-looking token is checked as an Android one")
  func storedOSChecksToken() throws {
    let e2e = try EndToEnd()
    #expect(
      try e2e.tpns.run(["register", "--os", "android", "--udid", "phone1", "fcm-1"]).status == 0)
    let result = try e2e.tpns.run(["register", "<0f0f>"])
    #expect(result.status == 65)
    #expect(result.stderr.contains("(for an iOS token, pass --os ios)"))
  }

  @Test("--os android with no --udid and no stored Android phone: 64, with the next step")
  func androidNeedsUDID() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let result = try tpns.run(
      ["register", "--os", "android"], environment: ["TPNS_TOKEN": "fcm-1"])
    #expect(result.status == 64)
    #expect(
      result.stderr
        == "Error: an Android phone needs its own ID: pass --udid\nPass the phone's own ID with --udid.\n"
    )
    #expect(contents(of: tpns.store) == nil)
  }

  @Test(
    "an option that changes the stored registration, without a token, registers the stored token with it",
    arguments: [
      (["--appid", "other.app"], "appid=other.app&udid=phone1&token=fcm-1&lang=fr&dev=1"),
      (["--udid", "phone2"], "appid=my.app&udid=phone2&token=fcm-1&lang=fr&dev=1"),
      (["--lang", "de"], "appid=my.app&udid=phone1&token=fcm-1&lang=de&dev=1"),
      (["--no-dev"], "appid=my.app&udid=phone1&token=fcm-1&lang=fr&dev=0"),
      (["--os", "android", "--lang", "de"], "appid=my.app&udid=phone1&token=fcm-1&lang=de&dev=1"),
    ] as [([String], String)])
  func storedTokenWithOptions(options: [String], sent: String) throws {
    let e2e = try EndToEnd()
    let first = try e2e.tpns.run([
      "register", "--os", "android", "--udid", "phone1", "--appid", "my.app", "--lang", "fr",
      "--dev", "fcm-1",
    ])
    #expect(first.status == 0, "\(first.stderr)")
    let result = try e2e.tpns.run(["register"] + options)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    #expect(try e2e.server.requests().map(\.raw).contains("cmd=client&os=android&" + sent))
  }

  @Test(
    "without a token, and none stored (or another --os), register is a usage error that says so",
    arguments: [
      ([], "Missing expected argument '<token>' (or --token-file, or TPNS_TOKEN)"),
      (
        ["--appid", "other.app"],
        "Missing expected argument '<token>' (or --token-file, or TPNS_TOKEN): no token is stored "
          + "for the options to change"
      ),
    ] as [([String], String)])
  func noTokenToUse(options: [String], error: String) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    let result = try tpns.run(["register"] + options)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: \(error)\n"), "\(result.stderr)")
    #expect(contents(of: tpns.store) == nil)
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", Self.ios1]).status == 0)
    let other = try e2e.tpns.run(["register", "--os", "android", "--udid", "p"])
    #expect(other.status == 64)
    #expect(
      other.stderr.hasPrefix(
        "Error: Missing expected argument '<token>' (or --token-file, or TPNS_TOKEN): the stored "
          + "token is ios's, not android's\n"), "\(other.stderr)")
  }

  @Test(
    "a 64-hex token registered while an Android phone is stored is warned about: it goes as Android"
  )
  func iosLookingTokenForAndroid() throws {
    let e2e = try EndToEnd()
    #expect(
      try e2e.tpns.run(["register", "--os", "android", "--udid", "phone1", "fcm-1"]).status == 0)
    let result = try e2e.tpns.run(["register"], environment: ["TPNS_TOKEN": Self.ios2])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "Warning: the token looks like an iOS (APNs) token, but it is registered as android, "
        + "the stored registration's OS; if it is an iOS token, run tpns register again with "
        + "--os ios\n")
    #expect(try e2e.server.requests().last?.raw.hasPrefix("cmd=client&os=android&") == true)
    // Given --os, it is what was asked for: no warning.
    let android = try e2e.tpns.run(
      ["register", "--os", "android"], environment: ["TPNS_TOKEN": Self.ios1])
    #expect(android.stderr.isEmpty, "\(android.stderr)")
  }
}
