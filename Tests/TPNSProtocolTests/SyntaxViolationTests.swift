import TPNSProtocol
import Testing

@Suite struct SyntaxViolationTests {
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
