import ArgumentParsing
import Posix
import TPNSKit
import TPNSProtocol

/// How tpns prints text for people: control characters escaped (`\u{1b}`),
/// so that no server or file can retitle the window or forge a line, and,
/// unless `--show-token`, runs of hex digits (tokens) masked.
struct TextOutput: Sendable {
  let mask: TokenMask
  var palette = Palette.plain
  var errorPalette = Palette.plain

  func shown(_ text: String) -> String {
    mask.hexRuns(text.escapingControlCharacters)
  }

  func line(_ text: String, style: Palette.Style? = nil) {
    Console.line(palette.paint(shown(text), style))
  }

  /// One line to standard error; without `style`, its `Error:`/`Warning:` label coloured.
  func error(_ text: String, style: Palette.Style? = nil) {
    let shown = shown(text)
    Console.error(style == nil ? errorPalette.paintLabels(shown) : errorPalette.paint(shown, style))
  }

  func errors(_ lines: [String]) {
    Console.error(lines.map(shown).joined(separator: "\n"))
  }
}
