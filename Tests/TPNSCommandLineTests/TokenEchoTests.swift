import Testing

@testable import TPNSCommandLine

/// How an echo of a secret is found in a server's text: 12 characters or
/// more of it in a row, in any case, percent-encoded, broken by white space.
@Suite struct TokenEchoTests {
  static let token = "fcm:APA91bHun4MxP5egoKMwt2KZ"

  @Test(
    "each echo becomes the token as shown; the text around it is kept",
    arguments: [
      ("bad: FCM%3AAPA91BHUN4MXP5 here", "bad: …Mwt2KZ here"),
      ("x fcm:APA91bHun4 y", "x …Mwt2KZ y"),
      ("a \(token) b", "a …Mwt2KZ b"),
      ("[fcm:APA91b\r\nHun4MxP5egoK]", "[…Mwt2KZ]"),
      ("fcm:APA91bHun4 and APA91bHun4MxP5", "…Mwt2KZ and …Mwt2KZ"),
      // Too short a stretch to be an echo, and unrelated text.
      ("fcm:APA91bH", "fcm:APA91bH"),
      ("nothing to see", "nothing to see"),
    ])
  func masks(text: String, expected: String) {
    #expect(TokenEcho.mask([Self.token], in: text) == expected)
  }

  @Test("a secret shorter than 12 characters is masked only whole")
  func shortSecret() {
    #expect(TokenEcho.mask(["phone-1"], in: "udid PHONE-1 and phone-") == "udid …hone-1 and phone-")
  }
}
