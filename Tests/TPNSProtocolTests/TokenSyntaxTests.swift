import TPNSProtocol
import Testing

@Suite("IOSTokenSyntax and AndroidTokenSyntax")
struct TokenSyntaxTests {
  static let hex = String(repeating: "0123456789abcdef", count: 4)
  static let iOSCases: [(String, Bool)] = [
    (hex, true),
    (hex.uppercased(), true),
    (String(hex.dropLast()), false),
    (hex + "0", false),
    ("g" + String(hex.dropFirst()), false),
    ("<" + String(hex.dropFirst(2)) + ">", false),
    ("{length = 32, bytes = 0x1234 ... 5678}", false),
  ]
  static let androidCases: [(String, Bool)] = [
    ("cX1_y:APA91b-Q.z", true),
    ("a", true),
    (String(repeating: "a", count: 4096), true),
    ("", false),
    (String(repeating: "a", count: 4097), false),
    ("a&b", false),
    ("a b", false),
    ("a%b", false),
    ("a=b", false),
    ("é", false),
  ]

  @Test("an iOS token is 64 hex characters of either case", arguments: iOSCases)
  func iOS(token: String, isValid: Bool) {
    #expect(IOSTokenSyntax.isValid(token) == isValid)
    #expect(OperatingSystem.ios.tokenViolation(token) == IOSTokenSyntax.violation(in: token))
  }

  @Test("an Android token is 1 to 4096 of [A-Za-z0-9_:.-]", arguments: androidCases)
  func android(token: String, isValid: Bool) {
    #expect(AndroidTokenSyntax.isValid(token) == isValid)
    #expect(
      OperatingSystem.android.tokenViolation(token) == AndroidTokenSyntax.violation(in: token))
  }
}
