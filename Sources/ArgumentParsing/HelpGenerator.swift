/// Help text in swift-argument-parser's layout: `OVERVIEW:`, `USAGE:`, `ARGUMENTS:`,
/// `OPTIONS:`, `SUBCOMMANDS:`, labels indented by two, help in one column at 26,
/// wrapped at 80 characters.
enum HelpGenerator {
  static let screenWidth = 80
  static let labelColumn = 26
  static let indent = 2

  /// The usage line of the last command of `path` (without `USAGE: `).
  static func usage(for path: [any ParsableCommand.Type]) -> String {
    let command = path[path.count - 1]
    let definitions = command.definitions().filter { !$0.isEnvironment }
    var parts = path.map { $0.commandName }
    parts += definitions.filter { !$0.isPositional }.map { $0.usage() }
    parts += definitions.filter(\.isPositional).map { $0.usage() }
    // swift-argument-parser's `tool <subcommand>` (its built-in --version and
    // --help are not shown).
    if command.isGroup(definitions) { parts.append("<subcommand>") }
    return parts.joined(separator: " ")
  }

  /// The full help of the last command of `path`, ending with a newline.
  static func help(for path: [any ParsableCommand.Type]) -> String {
    let command = path[path.count - 1]
    let configuration = command.configuration
    let definitions = command.definitions()
    let arguments = definitions.filter(\.isPositional)
    var sections: [String] = []
    if !configuration.abstract.isEmpty {
      sections.append(wrap("OVERVIEW: \(configuration.abstract)", indent: 0))
    }
    if !configuration.discussion.isEmpty {
      sections.append(
        configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false)
          .map { wrap(String($0), indent: 0) }.joined(separator: "\n"))
    }
    sections.append("USAGE: \(usage(for: path))")
    if !arguments.isEmpty {
      sections.append(
        "ARGUMENTS:\n" + arguments.map { row($0.synopsis, $0.fullHelp) }.joined(separator: "\n"))
    }
    let options = definitions.filter(\.isNamed) + ArgumentDefinition.builtins(configuration)
    sections.append(
      "OPTIONS:\n" + options.map { row($0.label, $0.fullHelp) }.joined(separator: "\n"))
    let variables = definitions.filter(\.isEnvironment)
    if !variables.isEmpty {
      sections.append(
        "ENVIRONMENT:\n"
          + variables.map { row($0.environment ?? "", $0.help) }.joined(separator: "\n"))
    }
    if !command.displayedSubcommands.isEmpty {
      let name = path.map { $0.commandName }.joined(separator: " ")
      sections.append(
        "SUBCOMMANDS:\n"
          + command.displayedSubcommands.map { row($0.commandName, $0.configuration.abstract) }
          .joined(separator: "\n")
          + "\n\n  See '\(name) help <subcommand>' for detailed help.")
    }
    return sections.joined(separator: "\n\n") + "\n"
  }

  /// One `  label   help` row; a label too wide for the column puts the help on the
  /// next line.
  private static func row(_ label: String, _ help: String) -> String {
    let padded = String(repeating: " ", count: indent) + label
    let wrapped = wrap(help, indent: labelColumn)
    if padded.count < labelColumn {
      return padded + wrapped.dropFirst(padded.count)
    }
    return padded + "\n" + wrapped
  }

  /// `text` wrapped at ``screenWidth``, every line indented by `indent`.
  private static func wrap(_ text: String, indent: Int) -> String {
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = margin
    for word in text.split(separator: " ") {
      if line.count > indent && line.count + 1 + word.count > screenWidth {
        lines.append(line)
        line = margin
      }
      line += (line.count > indent ? " " : "") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}
