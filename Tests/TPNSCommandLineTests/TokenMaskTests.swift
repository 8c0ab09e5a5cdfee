import Testing

@testable import TPNSCommandLine

@Suite struct TokenMaskTests {
  @Test(
    "runs of 24 or more hex digits show their last 6; shorter runs stay; --show-token keeps all",
    arguments: [
      ("token 0f1e2d3c4b5a69788796a5b4c3d2e1f0 is bad", "token …d2e1f0 is bad"),
      ("uid ABCDEF0123456789ABCD ok", "uid ABCDEF0123456789ABCD ok"),
      ("0123456789abcdef01234567", "…234567"),
      ("é 0123456789abcdef0123456789 é", "é …456789 é"),
      ("a 0123456789abcdef012345 b", "a 0123456789abcdef012345 b"),
    ])
  func hexRuns(text: String, masked: String) {
    #expect(TokenMask(showsTokens: false).hexRuns(text) == masked)
    #expect(TokenMask(showsTokens: true).hexRuns(text) == text)
  }

  @Test("a line for people has its control characters escaped, then its hex runs masked")
  func shown() {
    let output = TextOutput(mask: TokenMask(showsTokens: false))
    #expect(output.shown("a\u{1B}]0;x\u{7} plain") == "a\\u{1b}]0;x\\u{7} plain")
    #expect(output.shown("t=0f1e2d3c4b5a69788796a5b4c3d2e1f0\n") == "t=…d2e1f0\\u{a}")
  }
}
