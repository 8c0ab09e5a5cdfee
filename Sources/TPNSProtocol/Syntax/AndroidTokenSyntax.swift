/// The wire syntax of an Android (FCM) token: 1 to 4096 characters of `[A-Za-z0-9_:.-]`.
public enum AndroidTokenSyntax {
  /// Whether `text` is a valid Android token.
  public static func isValid(_ text: String) -> Bool { violation(in: text) == nil }

  /// What is wrong with `text`, or nil when it is a valid Android token.
  public static func violation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: 1...4096) { $0.isASCIIAlphanumeric(or: "_:.-") }
  }
}
