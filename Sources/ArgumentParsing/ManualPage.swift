/// What a program's manual pages say beyond its declarations: exit statuses,
/// files, related pages.
public struct ManualSupplement: Sendable {
  /// `(status, meaning)`, in order.
  public var exitStatuses: [(code: Int32, meaning: String)]
  /// `(path, what it is)`.
  public var files: [(path: String, meaning: String)]
  /// Other pages: `curl(1)`.
  public var seeAlso: [String]
  /// The footer's source: `tpns 1.4.0`.
  public var source: String
  /// Variables the program reads besides those its options declare
  /// (`NO_COLOR`), or what a page without any says (`reads none`).
  public var environment: [(name: String, meaning: String)]

  public init(
    exitStatuses: [(code: Int32, meaning: String)], files: [(path: String, meaning: String)] = [],
    environment: [(name: String, meaning: String)] = [], seeAlso: [String] = [], source: String
  ) {
    self.exitStatuses = exitStatuses
    self.files = files
    self.environment = environment
    self.seeAlso = seeAlso
    self.source = source
  }
}

/// One manual page: `tpns-add.1` and its man(7) text.
public struct ManualPage: Sendable, Equatable {
  /// `tpns-add`.
  public var name: String
  /// The page, in man(7) markup.
  public var text: String

  /// `tpns-add.1`.
  public var fileName: String { "\(name).1" }
}

extension ParsableCommand {
  /// A man(7) page for every displayed command from this root down
  /// (`tpns.1`, `tpns-add.1`, …), generated from the same declarations as
  /// `--help`: NAME, SYNOPSIS, DESCRIPTION, ARGUMENTS, OPTIONS, ENVIRONMENT,
  /// EXIT STATUS, FILES, EXAMPLES, SEE ALSO. `date` is the page's date
  /// (`2026-12-01`).
  public static func manualPages(_ supplement: ManualSupplement, date: String) -> [ManualPage] {
    commandPaths().map { ManualPage(path: $0, supplement: supplement, date: date) }
  }
}

extension ManualPage {
  init(path: [any ParsableCommand.Type], supplement: ManualSupplement, date: String) {
    let command = path[path.count - 1]
    let name = path.map { $0.commandName }.joined(separator: "-")
    let typed = path.map { $0.commandName }.joined(separator: " ")
    let configuration = command.configuration
    let definitions = command.definitions()
    let options = definitions.filter(\.isNamed)
    let arguments = definitions.filter(\.isPositional)
    var lines = [
      ".\\\" Generated from the command's declarations (as --help is); do not edit.",
      ".TH \(Self.escaped(name.uppercased())) 1 \"\(date)\" \(Self.quoted(supplement.source)) \"User Commands\"",
      ".SH NAME",
      "\(Self.escaped(name)) \\- \(Self.escaped(configuration.abstract))",
      ".SH SYNOPSIS",
    ]
    let subcommands = command.displayedSubcommands
    lines.append(".B \(Self.escaped(typed))")
    if command.isGroup(definitions) {
      lines.append("\\fIsubcommand\\fR [\\fIoptions\\fR]")
    } else {
      // The help's usage in man fonts: `[\fB\-\-from\fR \fIfile\fR]`.
      lines += (options + arguments).map {
        $0.usage(name: { "\\fB\(Self.escaped($0))\\fR" }, value: { "\\fI\(Self.escaped($0))\\fR" })
      }
    }
    lines.append(".SH DESCRIPTION")
    lines.append(Self.escaped(configuration.abstract))
    for paragraph in configuration.discussion.split(separator: "\n") where !paragraph.isEmpty {
      lines += [".PP", Self.escaped(String(paragraph))]
    }
    if !subcommands.isEmpty {
      lines.append(".SH COMMANDS")
      for subcommand in subcommands {
        let page = "\(name)-\(subcommand.commandName)"
        lines += [
          ".TP", "\\fB\(Self.escaped(subcommand.commandName))\\fR",
          "\(Self.escaped(subcommand.configuration.abstract)) See \\fB\(Self.escaped(page))\\fR(1).",
        ]
      }
    }
    if !arguments.isEmpty {
      lines.append(".SH ARGUMENTS")
      for argument in arguments {
        lines += [
          ".TP", "\\fI\(Self.escaped(argument.valueName))\\fR", Self.escaped(argument.fullHelp),
        ]
      }
    }
    lines.append(".SH OPTIONS")
    for option in options + ArgumentDefinition.builtins(configuration) {
      lines += [".TP", Self.label(option), Self.escaped(option.fullHelp)]
    }
    // A group's page names the variables of every command under it.
    var variables: [(name: String, meaning: String)] = []
    for definition in command.commandPaths().flatMap({ $0[$0.count - 1].definitions() }) {
      guard let name = definition.environment, !variables.contains(where: { $0.name == name })
      else { continue }
      let help =
        definition.isEnvironment
        ? definition.help
        : "Stands in for \(definition.long.map { "--\($0)" } ?? "") when it is not given ("
          + Self.lowercasedFirst(definition.help) + ")"
      variables.append((name, help))
    }
    variables += supplement.environment.filter { variable in
      !variables.contains { $0.name == variable.name }
    }
    lines.append(".SH ENVIRONMENT")
    for variable in variables {
      lines += [".TP", ".B \(Self.escaped(variable.name))", Self.escaped(variable.meaning)]
    }
    lines.append(".SH EXIT STATUS")
    let statuses =
      configuration.exitStatuses?.map { (code: $0.code, meaning: $0.meaning) }
      ?? supplement.exitStatuses
    for (code, meaning) in statuses {
      lines += [".TP", ".B \(code)", Self.escaped(meaning)]
    }
    if !supplement.files.isEmpty {
      lines.append(".SH FILES")
      for file in supplement.files {
        lines += [".TP", ".I \(Self.escaped(file.path))", Self.escaped(file.meaning)]
      }
    }
    if !configuration.examples.isEmpty {
      lines.append(".SH EXAMPLES")
      for (index, example) in configuration.examples.enumerated() {
        if index > 0 { lines.append(".PP") }
        lines += [
          Self.escaped(example.explanation), ".PP", ".RS 4", ".nf",
          Self.escaped(example.command), ".fi", ".RE",
        ]
      }
    }
    // The parent's page, or the root's: every other page.
    let pages =
      path.count > 1
      ? [path.dropLast()] : command.commandPaths().dropFirst().map { $0[...] }
    let related =
      pages.map { $0.map { $0.commandName }.joined(separator: "-") + "(1)" } + supplement.seeAlso
    if !related.isEmpty {
      lines.append(".SH SEE ALSO")
      lines.append(
        related.map { page in
          // `tpns-add(1)`: the title in bold, then the section.
          let open = page.hasSuffix(")") ? page.lastIndex(of: "(") : nil
          let title = open.map { String(page[..<$0]) } ?? page
          let section = open.map { String(page[$0...].dropFirst().dropLast()) } ?? "1"
          return "\\fB\(Self.escaped(title))\\fR(\(section))"
        }.joined(separator: ",\n"))
    }
    self.init(name: name, text: lines.joined(separator: "\n") + "\n")
  }

  /// `The state file.` → `the state file`: a help line inside a sentence.
  static func lowercasedFirst(_ text: String) -> String {
    var text = text.hasSuffix(".") ? String(text.dropLast()) : text
    if let first = text.first, text.dropFirst().first?.isLowercase ?? true {
      text = first.lowercased() + text.dropFirst()
    }
    return text
  }

  /// `\fB\-q\fR, \fB\-\-quiet\fR`, `\fB\-\-timeout\fR \fIseconds\fR`.
  static func label(_ definition: ArgumentDefinition) -> String {
    definition.names.map { "\\fB\(escaped($0))\\fR" }.joined(separator: ", ")
      + (definition.takesValue ? " \\fI\(escaped(definition.valueName))\\fR" : "")
  }

  /// `text` as man(7) text: backslashes and hyphens escaped, a leading `.`
  /// or `'` (a request) made literal.
  static func escaped(_ text: String) -> String {
    let output = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
    return output.hasPrefix(".") || output.hasPrefix("'") ? "\\&" + output : output
  }

  /// `"text"`, for a request's argument.
  static func quoted(_ text: String) -> String {
    "\"" + escaped(text).replacing("\"", with: "\\(dq") + "\""
  }
}
