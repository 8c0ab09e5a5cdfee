/// A line of the emulator's human-readable log (one per request, or a warning) made
/// safe for the terminal it is printed on: every character that a terminal acts on
/// rather than shows is written as ``Printable`` writes it (`\u{1b}`), so a request
/// cannot retitle the window (`ESC ]0;…`), clear the screen (`ESC [2J`), or forge a
/// line with a bare CR. Everything else, `…` included, is kept.
///
///     LogLine.escaped("GET\u{1B}[2J /tpns 405")  // #"GET\u{1b}[2J /tpns 405"#
///
/// Costs one pass over the line's bytes when it is plain ASCII, the common case.
enum LogLine {
  static func escaped(_ line: String) -> String {
    guard line.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return line }
    var output = ""
    for scalar in line.unicodeScalars {
      if isControl(scalar) {
        output += Printable.escaped(scalar)
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// Whether a terminal acts on `scalar` instead of showing it: the C0 and C1
  /// controls and DEL (newline and tab included: a log line is one line), the line
  /// and paragraph separators, and the bidirectional overrides that reorder what
  /// follows them.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x200E...0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}
