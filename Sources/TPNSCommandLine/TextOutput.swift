import ArgumentParsing
import Posix
import TPNSKit

/// How tpns prints text for people. Each line is made safe for a terminal:
/// its control characters escaped (`\u{1b}`), so that no text from a server
/// or a file can retitle the window or forge a line, and, unless
/// `--show-token`, runs of hex digits (tokens) masked.
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
    mask.hexRuns(text.escapingControlCharacters)
  }

  /// One line, to standard output, in `style`'s colour if colours are on.
  func line(_ text: String, style: Palette.Style? = nil) {
    Console.line(palette.paint(shown(text), style))
  }

  /// Several lines in one write, to standard output.
  func lines(_ lines: [String]) {
    Console.line(lines.map(shown).joined(separator: "\n"))
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
}
