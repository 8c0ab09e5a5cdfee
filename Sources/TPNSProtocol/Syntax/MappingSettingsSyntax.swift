/// The wire syntax of a mapping's settings, the `interval` and `format` a
/// `mapping` request or a `mapsync` entry carries. The client checks them
/// before anything is stored.
///
///     MappingSettingsSyntax.intervals.contains(30)                 // true
///     MappingSettingsSyntax.formatViolation(in: "motion at %s")    // nil
public enum MappingSettingsSyntax {
  /// The intervals tpns stores and sends: what a server takes
  /// (``MapEntry/intervals``), 0 included, since shipping apps send 0.
  public static let intervals: ClosedRange<Int> = MapEntry.intervals

  /// The allowed lengths of a format, in Unicode scalars.
  public static let formatLengths = 1...255

  /// What is wrong with a format (1 to 255 characters, no control
  /// characters), or nil.
  public static func formatViolation(in text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: formatLengths) { !$0.isControl }
  }
}
