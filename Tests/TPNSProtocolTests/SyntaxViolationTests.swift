import TPNSProtocol
import Testing

@Suite struct SyntaxViolationTests {
  static func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
    ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
      || scalar == "." || scalar == "-" || scalar == "é"
  }

  @Test(
    "a refused character is reported before a bad length, positions counting scalars",
    arguments: [
      ("abc", nil), ("", .length(actual: 0, expected: 1...20)), ("a.b-c", nil),
      ("a b", .character(" ", position: 2)),
      ("abcdefghijklmnopqrstu", .length(actual: 21, expected: 1...20)), ("é", nil),
      ("aé b", .character(" ", position: 3)), ("日本", .character("日", position: 1)),
      ("a\u{0}b", .character("\u{0}", position: 2)),
    ] as [(String, SyntaxViolation?)])
  func first(text: String, expected: SyntaxViolation?) {
    #expect(SyntaxViolation.first(in: text, length: 1...20, allows: Self.isIdentifier) == expected)
  }

  @Test("the syntaxes report the position of the first character they refuse")
  func positions() {
    #expect(IOSTokenSyntax.violation(in: "0a1B" + String(repeating: "c", count: 60)) == nil)
    #expect(
      IOSTokenSyntax.violation(in: "0a1g" + String(repeating: "c", count: 60))
        == .character("g", position: 4))
    #expect(DeviceUIDSyntax.violation(in: "ABCDEFGHJKLMNPRSTUVW") == nil)
    #expect(
      DeviceUIDSyntax.violation(in: "ABCDEFGHJKLMNPRSTUVw") == .character("w", position: 20))
    #expect(
      PhoneFieldSyntax.udidViolation(in: "phoné:1 x") == .character("é", position: 5))
    #expect(AndroidTokenSyntax.violation(in: "fcm:tok_en-1.2") == nil)
    #expect(AndroidTokenSyntax.violation(in: "fcm/x") == .character("/", position: 4))
  }
}
