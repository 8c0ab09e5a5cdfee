import ArgumentParsing
import Posix
import TPNSKit

/// How tpns prints text for people. Each line is made safe for a terminal:
/// its control characters escaped (`\u{1b}`), so that a server's body, a
/// file's line or a store's string cannot retitle the window, clear the
/// screen or forge a line, and, unless `--show-token`, runs of hex digits
/// (tokens) masked. Lines are passed one by one, so that the newlines
/// between them are the only ones printed. JSON goes to ``Console`` as it
/// is: its encoder escapes.
///
///     output.line("sent event: \(body)")
///     output.lines(rows)
struct TextOutput: Sendable {
  let mask: TokenMask
  /// Colours for standard output and standard error (``Palette``).
  var palette = Palette.plain
  var errorPalette = Palette.plain

  /// `text` as one line of output shows it.
  func shown(_ text: String) -> String {
    guard !Self.isPlain(text, keepingNewlines: false) else { return text }
    return mask.hexRuns(text.escapingControlCharacters)
  }

  /// One line, to standard output, in `style`'s colour if colours are on.
  func line(_ text: String, style: Palette.Style? = nil) {
    Console.line(palette.paint(shown(text), style))
  }

  /// Several lines in one write, to standard output.
  func lines(_ lines: [String]) {
    Console.line(lines.map(shown).joined(separator: "\n"))
  }

  /// Lines joined by newlines, to standard output, in one write: what a
  /// long listing builds as one text (its newlines, and only those, kept).
  func block(_ text: String) {
    guard !Self.isPlain(text, keepingNewlines: true) else { return Console.line(text) }
    lines(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
  }

  /// One line, to standard error, in `style`'s colour (or with its
  /// `Error:`/`Warning:` label coloured) if colours are on.
  func error(_ text: String, style: Palette.Style? = nil) {
    let shown = shown(text)
    Console.error(style == nil ? errorPalette.paintLabels(shown) : errorPalette.paint(shown, style))
  }

  /// Several lines in one write, to standard error.
  func errors(_ lines: [String]) {
    Console.error(lines.map(shown).joined(separator: "\n"))
  }

  /// Whether `text` needs nothing done (the common case, read in one pass
  /// over its bytes): no control character (but newlines, if kept) and no
  /// run of hex digits long enough to be masked.
  private static func isPlain(_ text: String, keepingNewlines: Bool) -> Bool {
    var hexRun = 0
    var afterC2 = false
    for byte in text.utf8 {
      // C0 and DEL are single bytes; C1 is 0xC2 0x80-0x9F in UTF-8.
      if byte < 0x20 && !(keepingNewlines && byte == 0x0A) { return false }
      if byte == 0x7F || (afterC2 && (0x80...0x9F).contains(byte)) { return false }
      afterC2 = byte == 0xC2
      let isHex =
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)
        || (0x61...0x66).contains(byte)
      hexRun = isHex ? hexRun + 1 : 0
      if hexRun == TokenMask.hexRunLength { return false }
    }
    return true
  }
}
