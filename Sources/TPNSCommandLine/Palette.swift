import ArgumentParsing
import Glibc

/// Colours for one output stream, as `git` and `gh` use them (`--color`): errors
/// red, success green, what is pending or waiting yellow.
///
///     palette.paint("synced 3 UIDs", .success)  // "\u{1b}[32msynced 3 UIDs\u{1b}[0m"
struct Palette: Sendable {
  /// What a piece of text says, as its SGR colour code: red, green, yellow.
  enum Style: String, Sendable {
    case failure = "31"
    case success = "32"
    case pending = "33"
  }

  let isEnabled: Bool

  static let plain = Palette(isEnabled: false)

  /// The palette of `descriptor` (1: stdout, 2: stderr) for `choice`.
  static func of(
    _ descriptor: Int32, choice: ColorChoice, environment: [String: String]? = nil
  ) -> Palette {
    switch choice {
    case .always: return Palette(isEnabled: true)
    case .never: return .plain
    case .auto:
      let environment = environment ?? ProcessEnvironment.current
      let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
      let dumb = environment["TERM"] == "dumb"
      return Palette(isEnabled: !noColor && !dumb && isatty(descriptor) == 1)
    }
  }

  func paint(_ text: String, _ style: Style?) -> String {
    guard isEnabled, let style else { return text }
    return "\u{1b}[\(style.rawValue)m\(text)\u{1b}[0m"
  }

  /// The `Error: ` or `Warning: ` at the start of each line of `text` painted
  /// (a message's own text is left as it is).
  func paintLabels(_ text: String) -> String {
    guard isEnabled else { return text }
    let labels: [(String, Style)] = [("Error:", .failure), ("Warning:", .pending)]
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      guard let (label, style) = labels.first(where: { line.hasPrefix($0.0) }) else {
        return String(line)
      }
      return paint(label, style) + line.dropFirst(label.count)
    }.joined(separator: "\n")
  }
}
