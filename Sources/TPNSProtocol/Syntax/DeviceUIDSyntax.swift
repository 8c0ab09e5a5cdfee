/// The wire syntax of a device UID, the strict form a server accepts: exactly 20
/// characters of `[A-Z0-9]` (``DeviceUID`` trims and upper-cases user input first).
public enum DeviceUIDSyntax {
  /// The number of characters of a UID.
  public static let length = 20

  /// Whether `text` is a valid UID.
  public static func isValid(_ text: String) -> Bool { violation(in: text) == nil }

  /// What is wrong with `text`, or nil when it is a valid UID. A bad character is
  /// reported before a bad length.
  public static func violation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: length...length) {
      ("A"..."Z").contains($0) || ("0"..."9").contains($0)
    }
  }
}
