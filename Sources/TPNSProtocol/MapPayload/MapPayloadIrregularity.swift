/// Something in a `mapsync` payload that real clients send and a canonical client
/// does not: ``MapPayload/decode(entries:)`` reads past it and reports it, so that a
/// lenient server can accept the payload with a warning and a strict one refuse it.
public enum MapPayloadIrregularity: Sendable, Hashable, CustomStringConvertible {
  /// The base64 is broken into lines (Android's `Base64.DEFAULT`: 76 characters and
  /// `\n`); the line breaks were skipped.
  case lineBreaks
  /// These entries (0-based, in order) have keys besides `uid`, `interval` and
  /// `format`: `keys`, sorted, over all of them. Their values are kept.
  case otherKeys(entries: [Int], keys: [String])
  /// The entry's `interval` is not an integer from 0 to ``MapEntry/intervals``'s upper
  /// bound: `found` is its JSON text; `takenAs` the integer read from it (a string of
  /// digits, a number out of range), or nil when it was ignored.
  case interval(entry: Int, found: String, takenAs: Int?)
  /// The entry's `format` is not a string (`found`, its JSON text); it was ignored.
  case format(entry: Int, found: String)

  public var description: String {
    switch self {
    case .lineBreaks:
      return "map is base64 broken into lines (Android's Base64.DEFAULT); "
        + "a canonical client sends it on one line (Base64.NO_WRAP)"
    case .otherKeys(let entries, let keys):
      let shown = entries.prefix(5).map(String.init).joined(separator: ", ")
      let more = entries.count > 5 ? " and \(entries.count - 5) more" : ""
      return "map \(entries.count == 1 ? "entry" : "entries") \(shown)\(more) "
        + "\(entries.count == 1 ? "has" : "have") keys besides uid, interval and format: "
        + keys.joined(separator: ", ")
    case .interval(let entry, let found, let takenAs):
      return "map entry \(entry) has an interval \(Self.shown(found)) that is not an integer "
        + "from \(MapEntry.intervals.lowerBound) to \(MapEntry.intervals.upperBound)"
        + (takenAs.map { " (taken as \($0))" } ?? " (ignored)")
    case .format(let entry, let found):
      return "map entry \(entry) has a format \(Self.shown(found)) that is not a string (ignored)"
    }
  }

  /// JSON text cut to 40 characters.
  private static func shown(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(40)) + "..." : text
  }
}
