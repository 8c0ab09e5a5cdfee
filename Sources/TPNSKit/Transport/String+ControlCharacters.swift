import TPNSProtocol

extension StringProtocol {
  /// The text with each control character (C0 with newline and carriage return, DEL,
  /// C1) written as `\u{1b}`, the emulator's form, so that text from a server, a file
  /// or the store cannot retitle the window, clear the screen or forge a line of
  /// output: for one line of human-readable text (JSON output has its own escaping).
  ///
  ///     "a\u{1B}]0;pwned\u{7}".escapingControlCharacters  // "a\\u{1b}]0;pwned\\u{7}"
  public var escapingControlCharacters: String {
    guard unicodeScalars.contains(where: \.isControl) else { return String(self) }
    var output = ""
    for scalar in unicodeScalars {
      if scalar.isControl {
        output += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}
