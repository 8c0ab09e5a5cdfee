/// The wire syntax of an event's message (`msg`): 1 to 4096 characters, no
/// control characters but newline and tab. The client checks it before
/// sending; the emulator refuses what breaks it.
///
///     EventMessageSyntax.violation(in: "motion detected")  // nil
public enum EventMessageSyntax {
  /// The allowed lengths, in Unicode scalars.
  public static let lengths = 1...4096

  /// What is wrong with `text`, or nil when it is a valid message.
  public static func violation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: lengths) { !$0.isControl || $0 == "\n" || $0 == "\t" }
  }
}
