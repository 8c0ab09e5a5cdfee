import ArgumentParsing
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

  /// `text` as one line of output shows it.
  func shown(_ text: String) -> String {
    mask.hexRuns(text.escapingControlCharacters)
  }

  /// One line, to standard output.
  func line(_ text: String) {
    Console.line(shown(text))
  }

  /// Several lines in one write, to standard output.
  func lines(_ lines: [String]) {
    Console.line(lines.map(shown).joined(separator: "\n"))
  }

  /// One line, to standard error.
  func error(_ text: String) {
    Console.error(shown(text))
  }

  /// Several lines in one write, to standard error.
  func errors(_ lines: [String]) {
    Console.error(lines.map(shown).joined(separator: "\n"))
  }
}
