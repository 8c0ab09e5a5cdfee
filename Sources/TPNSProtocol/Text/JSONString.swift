/// JSON string literals, written by hand where the exact bytes matter (the
/// `mapsync` payload, `--json` output) rather than through `JSONEncoder`.
public enum JSONString {
  /// `text` as a JSON string literal: quotes, backslashes and control
  /// characters escaped, everything else as is.
  ///
  ///     JSONString.quoted("a\"b")  // "\"a\\\"b\""
  public static func quoted(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      // C0, DEL and C1: a terminal shown the JSON must not take them as controls.
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output + "\""
  }

  /// ``quoted(_:)``'s bytes appended to `output`; a string with nothing to
  /// escape (a UID, say) is copied as it is.
  public static func append(_ text: String, to output: inout [UInt8]) {
    // In place (the mutating `withUTF8` checks the buffer is unique first).
    let plain =
      text.utf8.withContiguousStorageIfAvailable { bytes in
        for byte in bytes where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C {
          return false
        }
        output.append(0x22)
        output.append(contentsOf: bytes)
        output.append(0x22)
        return true
      } ?? false
    if !plain { output.append(contentsOf: quoted(text).utf8) }
  }
}
