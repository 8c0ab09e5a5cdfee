import TPNSProtocol
import Testing

@Suite struct JSONStringTests {
  @Test(
    "control characters (C0, DEL, C1) are written as \\u escapes; everything else as it is",
    arguments: [
      ("plain", #""plain""#),
      ("a\"b\\c", #""a\"b\\c""#),
      ("\u{1B}]0;pwned\u{07}", #""\u001b]0;pwned\u0007""#),
      ("del\u{7F}", #""del\u007f""#),
      ("csi\u{9B}31m", #""csi\u009b31m""#),
      ("\u{80}\u{9F}\u{A0}é…", "\"\\u0080\\u009f\u{A0}é…\""),
      ("line\r\n\ttab", #""line\r\n\ttab""#),
    ])
  func quoted(text: String, expected: String) {
    #expect(JSONString.quoted(text) == expected)
  }
}
