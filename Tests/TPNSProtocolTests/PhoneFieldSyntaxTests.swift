import TPNSProtocol
import Testing

@Suite struct PhoneFieldSyntaxTests {
  @Test(
    "appid, udid and lang accept their characters and refuse what could break the form",
    arguments: [
      ("appid", "com.tutk.cc.samples.tpns.ios", true),
      ("appid", "a&cmd=event", false),
      ("appid", "", false),
      ("appid", "app:id", false),
      ("appid", String(repeating: "a", count: 256), false),
      ("udid", "2f0c1e7a-9b3d-4c5e:phone_1.x", true),
      ("udid", "phone&cmd=x", false),
      ("udid", "phone 1", false),
      ("udid", "phone=1", false),
      ("udid", "phone%31", false),
      ("udid", "téléphone", false),
      ("udid", String(repeating: "a", count: 4097), false),
      ("lang", "zh-TW", true),
      ("lang", "en_US", true),
      ("lang", "en US", false),
      ("lang", String(repeating: "a", count: 36), false),
    ])
  func syntax(field: String, value: String, valid: Bool) {
    let violation =
      switch field {
      case "appid": PhoneFieldSyntax.appIDViolation(in: value)
      case "udid": PhoneFieldSyntax.udidViolation(in: value)
      default: PhoneFieldSyntax.languageViolation(in: value)
      }
    #expect((violation == nil) == valid)
  }
}

@Suite struct EventMessageSyntaxTests {
  @Test(
    "a message is 1 to 4096 characters, newlines and tabs allowed, other control characters not",
    arguments: [
      ("motion detected", nil),
      ("line 1\nline 2\tend", nil),
      ("-10 degrees", nil),
      (String(repeating: "é", count: 4096), nil),
      ("", SyntaxViolation.length(actual: 0, expected: 1...4096)),
      (String(repeating: "a", count: 4097), .length(actual: 4097, expected: 1...4096)),
      ("bell\u{07}", .character("\u{07}", position: 5)),
      ("a\u{7F}", .character("\u{7F}", position: 2)),
      ("a\u{85}", .character("\u{85}", position: 2)),
      ("cr\r", .character("\r", position: 3)),
    ] as [(String, SyntaxViolation?)])
  func violation(message: String, expected: SyntaxViolation?) {
    #expect(EventMessageSyntax.violation(in: message) == expected)
  }
}
