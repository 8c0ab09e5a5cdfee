extension StringProtocol {
  /// The text with each control character a terminal acts on (C0, newline
  /// and carriage return included; DEL; C1) written as `\u{1b}`, the
  /// emulator's form, so that text from a server, a file or the store cannot
  /// retitle the window, clear the screen or forge a line of output.
  /// Everything else is kept, so this is for one line of human-readable text
  /// (JSON output has its own escaping).
  ///
  ///     "a\u{1B}]0;pwned\u{7}".escapingControlCharacters  // "a\\u{1b}]0;pwned\\u{7}"
  public var escapingControlCharacters: String {
    // C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F).
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
    guard unicodeScalars.contains(where: isControl) else { return String(self) }
    var output = ""
    for scalar in unicodeScalars {
      if isControl(scalar) {
        output += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}
