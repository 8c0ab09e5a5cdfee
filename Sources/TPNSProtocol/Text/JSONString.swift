/// JSON string literals, written by hand where the exact bytes matter (the
/// `mapsync` payload, `--json` output) rather than through `JSONEncoder`.
public enum JSONString {
  /// `text` as a JSON string literal: quotes, backslashes and control
  /// characters escaped, everything else as is.
  ///
  ///     JSONString.quoted("a\"b")  // "\"a\\\"b\""
  public static func quoted(_ text: String) -> String {
    // Most texts (UIDs, keys) have nothing to escape: a `mapsync` quotes
    // every UID, and appending them scalar by scalar costs it a third more.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
      return "\"" + text + "\""
    }
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      // C0, DEL and C1: a terminal shown the JSON must not take them as controls.
      case _ where scalar.isControl:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output + "\""
  }
}
