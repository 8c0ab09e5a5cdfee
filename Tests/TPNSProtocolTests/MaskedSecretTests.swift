import TPNSProtocol
import Testing

@Suite struct MaskedSecretTests {
  @Test(
    "a secret shows its last 6 characters, or all of 6 or fewer",
    arguments: [
      ("", ""), ("abc", "abc"), ("abcdef", "abcdef"), ("abcdefg", "…bcdefg"),
      (
        "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
        "…d2e1f0"
      ),
    ])
  func masked(secret: String, shown: String) {
    #expect(MaskedSecret(secret).description == shown)
  }
}
