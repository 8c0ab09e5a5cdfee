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

  /// Whether `bytes` need no escaping: all in 0x20...0x7E, none `"` or `\`.
  /// Eight at a time (a byte loop was 400 instructions a UID of a mapsync).
  static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let highs = WordBytes.highs
    var index = 0
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while index + 8 <= bytes.count {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        // From 0x80, below 0x20 (its high bit clear once 0x60 is added), DEL, `"`, `\`.
        let bad =
          word & highs | ~(word &+ 0x6060_6060_6060_6060) & highs
          | WordBytes.matches(word, 0x7F) | WordBytes.matches(word, 0x22)
          | WordBytes.matches(word, 0x5C)
        if bad != 0 { return false }
        index += 8
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
      index += 1
    }
    return true
  }

  /// ``quoted(_:)``'s bytes appended to `output`; a string with nothing to
  /// escape (a UID, say) is copied as it is.
  public static func append(_ text: String, to output: inout [UInt8]) {
    // In place (the mutating `withUTF8` checks the buffer is unique first).
    let plain =
      text.utf8.withContiguousStorageIfAvailable { bytes in
        guard isPlain(bytes) else { return false }
        output.append(0x22)
        output.append(contentsOf: bytes)
        output.append(0x22)
        return true
      } ?? false
    if !plain { output.append(contentsOf: quoted(text).utf8) }
  }
}
