import TPNSProtocol
import Testing

@Suite struct SyntaxViolationTests {
  static func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
    ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
      || scalar == "." || scalar == "-" || scalar == "é"
  }

  @Test("an ASCIISet holds the ASCII characters its test accepts, and nothing past ASCII")
  func set() {
    let set = ASCIISet(Self.isIdentifier)
    for byte in UInt8(0)...UInt8(255) {
      #expect(set.contains(byte) == (byte < 0x80 && Self.isIdentifier(Unicode.Scalar(byte))))
    }
  }

  @Test(
    "checked with a set, a text has the violation its scalar test finds",
    arguments: [
      "abc", "", "a.b-c", "a b", "abcdefghijklmnopqrstu", "é", "aé b", "a bé", "日本", "ab日",
      "a\u{0}b", "ab\u{7F}", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    ])
  func sameAsScalarTest(text: String) {
    let set = ASCIISet(Self.isIdentifier)
    for length in [1...20, 3...3, 0...4096] {
      #expect(
        SyntaxViolation.first(in: text, length: length, ascii: set, allows: Self.isIdentifier)
          == SyntaxViolation.first(in: text, length: length, allows: Self.isIdentifier))
    }
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
