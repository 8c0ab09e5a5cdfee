extension StringProtocol {
  /// The text with each character a terminal acts on rather than shows written as
  /// `\u{1b}`, so that text from a request, a server, a file or the store cannot
  /// retitle the window, clear the screen, forge a line or reorder what follows it:
  /// the C0 and C1 controls and DEL (newline and tab included: this is for one line of
  /// human-readable text; JSON has its own escaping), the line and paragraph
  /// separators, and the bidirectional marks, embeddings, overrides and isolates.
  ///
  ///     "a\u{1B}]0;pwned\u{7}".escapingControlCharacters  // "a\\u{1b}]0;pwned\\u{7}"
  public var escapingControlCharacters: String {
    guard unicodeScalars.contains(where: \.actsOnTerminal) else { return String(self) }
    var output = ""
    for scalar in unicodeScalars {
      if scalar.actsOnTerminal {
        output += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}

extension Unicode.Scalar {
  /// Whether a terminal acts on it instead of showing it (``escapingControlCharacters``).
  fileprivate var actsOnTerminal: Bool {
    switch value {
    case 0..<0x20, 0x7F...0x9F, 0x200E...0x200F, 0x2028...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
