import TPNSProtocol
import Testing

@Suite("DeviceUIDSyntax")
struct DeviceUIDSyntaxTests {
  @Test(
    "says what is wrong with a UID",
    arguments: [
      ("ABCDEFGHJKLMNPRSTUVW", nil),
      ("0123456789ABCDEFGHIJ", nil),
      ("ABCDEFGHJKLMNPRSTUV", SyntaxViolation.length(actual: 19, expected: 20...20)),
      ("ABCDEFGHJKLMNPRSTUVWX", .length(actual: 21, expected: 20...20)),
      ("", .length(actual: 0, expected: 20...20)),
      ("abcdefghjklmnprstuvw", .character("a", position: 1)),
      ("ABCDEFGHJK-MNPRSTUVW", .character("-", position: 11)),
      ("ABCDEFGHJK MNPRSTUVW", .character(" ", position: 11)),
      ("ABCDEFGHJKLMNPRSTUVÉ", .character("É", position: 20)),
    ])
  func violation(text: String, expected: SyntaxViolation?) {
    #expect(DeviceUIDSyntax.violation(in: text) == expected)
    #expect(DeviceUIDSyntax.isValid(text) == (expected == nil))
  }

  @Test(
    "describes a violation in words",
    arguments: [
      (SyntaxViolation.length(actual: 19, expected: 20...20), "has 19 characters, expected 20"),
      (.length(actual: 0, expected: 1...4096), "has 0 characters, expected 1 to 4096"),
      (.character("-", position: 11), "has '-' at position 11, which is not allowed"),
      (.character("\u{7}", position: 2), "has U+0007 at position 2, which is not allowed"),
    ])
  func description(violation: SyntaxViolation, text: String) {
    #expect(violation.description == text)
  }
}
