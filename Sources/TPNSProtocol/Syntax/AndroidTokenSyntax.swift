/// The wire syntax of an Android (FCM) token: 1 to 4096 characters of `[A-Za-z0-9_:.-]`.
public enum AndroidTokenSyntax {
  /// The allowed lengths.
  public static let lengths = 1...4096

  /// Whether `text` is a valid Android token.
  public static func isValid(_ text: String) -> Bool { violation(in: text) == nil }

  /// What is wrong with `text`, or nil when it is a valid Android token.
  public static func violation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: lengths) { $0.isASCIIAlphanumeric(or: "_:.-") }
  }
}
