/// The wire syntax of an iOS (APNs) token: exactly 64 hex characters, in either case
/// (servers compare tokens case-insensitively; clients send lower case).
public enum IOSTokenSyntax {
  /// The number of characters of a token (32 bytes in hex).
  public static let length = 64

  /// Whether `text` is a valid iOS token.
  public static func isValid(_ text: String) -> Bool { violation(in: text) == nil }

  /// What is wrong with `text`, or nil when it is a valid iOS token.
  public static func violation(in text: String) -> SyntaxViolation? {
    // Plain ranges: `properties.isASCIIHexDigit` looks each scalar up in the Unicode tables.
    SyntaxViolation.first(in: text, length: length...length) {
      ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0)
    }
  }
}
