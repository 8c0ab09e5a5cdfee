/// Parses a command line against a tree of ``ParsableCommand`` types, from the
/// definitions their property wrappers declare.
///
/// Rules, as swift-argument-parser: a subcommand is selected by the first argument;
/// `help [subcommand...]` as the first argument, or `-h`/`--help` anywhere before
/// `--`, asks for help, and `--version` the root's version; options are
/// `--name value`, `--name=value` or `-n value`, and short flags run together
/// (`-qv`, the last letter may be an option: `-qp 80`); a value in the next argument may
/// not look like an option (then it is missing) unless the option parses
/// ``SingleValueParsingStrategy/unconditional``; `-` alone is a value, and so is a
/// negative number (`-5`, `-1.5`) when no option of the command is named by a
/// digit, as in Python's argparse; `--` ends the options. An option not given
/// takes its environment variable, if declared and set, else its default; an
/// option's variable set but empty is a usage error (a flag's is off).
enum ArgumentParser {
  enum Outcome {
    case command(path: [any ParsableCommand.Type], values: ParsedValues)
    case help(path: [any ParsableCommand.Type])
    case version(String)
  }

  static func parse(
    _ arguments: [String], root: any ParsableCommand.Type,
    environment: @Sendable (String) -> String?
  ) throws(UsageError) -> Outcome {
    var arguments = arguments
    var path: [any ParsableCommand.Type] = [root]
    var index = 0

    if arguments.first == "help" {
      // Options (`help add --json`, `help -- add`) and `help` itself are passed over,
      // and so are a command's arguments (`help completion bash`).
      for name in arguments.dropFirst() where name != "help" && !name.hasPrefix("-") {
        guard !path[path.count - 1].configuration.subcommands.isEmpty else { break }
        guard let subcommand = path[path.count - 1].subcommand(named: name) else {
          throw unknownCommand(name, path)
        }
        path.append(subcommand)
      }
      return .help(path: path)
    }
    while index < arguments.count,
      let subcommand = path[path.count - 1].subcommand(named: arguments[index])
    {
      path.append(subcommand)
      index += 1
    }

    let command = path[path.count - 1]
    let definitions = command.definitions()
    let named = definitions.filter(\.isNamed)

    // Help wins over every other problem, as in swift-argument-parser.
    let beforeTerminator = arguments[index...].prefix { $0 != "--" }
    if beforeTerminator.contains("--help") || beforeTerminator.contains("-h") {
      return .help(path: path)
    }
    let configuration = command.configuration
    if !configuration.version.isEmpty, beforeTerminator.contains("--version") {
      let detail = configuration.versionDetail.map { " " + $0() } ?? ""
      return .version(configuration.version + detail)
    }
    if command.isGroup(definitions) {
      // Nothing of its own to parse: a subcommand or nothing (its help).
      guard let first = arguments[index...].first else { return .help(path: path) }
      if !looksLikeOption(first, among: named) { throw unknownCommand(first, path) }
    }

    var given: [String: [any Sendable]] = [:]
    var positionals: [String] = []
    var afterTerminator: [String]?
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        afterTerminator = Array(arguments[index...])
        break
      }
      guard looksLikeOption(argument, among: named) else {
        positionals.append(argument)
        continue
      }
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let definition = named.first(where: { $0.names.contains(name) }) else {
        if inlineValue == nil, let split = shortFlags(in: argument, among: named) {
          arguments.replaceSubrange((index - 1)..<index, with: split)
          index -= 1
          continue
        }
        let long = (named + [.help]).flatMap(\.names).filter { $0.hasPrefix("--") }
        throw unknown("option", name, among: name.hasPrefix("--") ? long : [], path)
      }
      if case .flag(let inversion) = definition.kind {
        guard inlineValue == nil else { throw error(UsageError.unexpectedArgument(argument), path) }
        given[definition.path, default: []].append(inversion.map { name != "--\($0)" } ?? true)
        continue
      }
      guard case .option(let parsing, _) = definition.kind else { continue }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.count,
        parsing == .unconditional || !looksLikeOption(arguments[index], among: named)
      {
        value = arguments[index]
        index += 1
      } else {
        throw error(UsageError.missingValue(definition.synopsis), path)
      }
      given[definition.path, default: []].append(try typed(value, definition, path))
    }

    var values = ParsedValues()
    for definition in definitions where !definition.isPositional {
      // Both names of an inverted flag (`--dev`, `--no-dev`): both values.
      if let inversion = definition.inversion, let long = definition.long,
        Set(given[definition.path]?.compactMap { $0 as? Bool } ?? []).count == 2
      {
        throw error("--\(long) and --\(inversion) cannot be used together", path)
      }
      if let typed = given[definition.path] {
        values[definition.path] = definition.collect(typed)
      } else if let variable = definition.environment, let text = environment(variable),
        !text.isEmpty || !definition.isEnvironment
      {
        values[definition.path] = try fromEnvironment(text, variable, definition, path)
      } else if case .value(let absent) = definition.absent {
        values[definition.path] = absent
      } else {
        throw error(UsageError.missingValue(definition.synopsis), path)
      }
    }
    try assign(
      positionals, afterTerminator, to: definitions.filter(\.isPositional), in: &values, path)
    return .command(path: path, values: values)
  }

  /// The value of `definition` from its environment variable's `text`.
  private static func fromEnvironment(
    _ text: String, _ variable: String, _ definition: ArgumentDefinition,
    _ path: [any ParsableCommand.Type]
  ) throws(UsageError) -> any Sendable {
    if definition.isFlag {
      if ["1", "true", "yes", "on"].contains(text.lowercased()) { return true }
      if ["", "0", "false", "no", "off"].contains(text.lowercased()) { return false }
      throw error(
        "\(variable) must be 1, true, yes or on (or 0, false, no, off or empty), got "
          + text.debugDescription, path)
    }
    let expected = definition.expectation ?? "a valid '\(definition.synopsis)'"
    if text.isEmpty, !definition.isEnvironment {
      // A mistake (`TPNS_SERVER=$UNSET_VARIABLE`), not the default.
      throw error(
        "\(variable) is set but empty: set it to \(expected), or unset it for the default", path)
    }
    guard let value = definition.convert(text) else {
      throw error(
        "\(variable) must be \(expected), got \(definition.shown(text).debugDescription)", path)
    }
    return definition.collect([value])
  }

  /// `-qv` as `["-q", "-v"]`, as getopt reads it: each letter a flag but the
  /// last, which may take a value; nil when `argument` is not that.
  static func shortFlags(in argument: String, among named: [ArgumentDefinition]) -> [String]? {
    guard !argument.hasPrefix("--"), argument.count > 2 else { return nil }
    let letters = Array(argument.dropFirst())
    var split: [String] = []
    for (offset, letter) in letters.enumerated() {
      guard let definition = named.first(where: { $0.short == letter }),
        definition.isFlag || offset == letters.count - 1
      else { return nil }
      split.append("-\(letter)")
    }
    return split
  }

  /// Whether `argument` is an option (or flag) rather than a value: `-` alone and
  /// negative numbers are values, unless an option is named by a digit.
  static func looksLikeOption(_ argument: String, among named: [ArgumentDefinition]) -> Bool {
    guard argument.hasPrefix("-"), argument != "-" else { return false }
    return !isNegativeNumber(argument) || named.contains { $0.short?.isNumber == true }
  }

  /// `-5`, `-1.5`, `-.5`, `-99999999999999999999`: a `-`, then a number.
  private static func isNegativeNumber(_ argument: String) -> Bool {
    let rest = argument.dropFirst()
    guard let first = rest.first, first.isASCII, first.isNumber || first == "." else {
      return false
    }
    return Double(rest) != nil
  }

  /// "Unknown command 'lst'. Did you mean 'list'?", as git suggests the nearest one.
  private static func unknownCommand(_ name: String, _ path: [any ParsableCommand.Type])
    -> UsageError
  {
    unknown(
      "command", name, among: path[path.count - 1].displayedSubcommands.map { $0.commandName }, path
    )
  }

  /// "Unknown option '--verbos'. Did you mean '--verbose'?"
  private static func unknown(
    _ what: String, _ name: String, among names: [String], _ path: [any ParsableCommand.Type]
  ) -> UsageError {
    let suggestion = name.nearest(among: names).map { ". Did you mean '\($0)'?" } ?? ""
    return error("Unknown \(what) '\(name)'" + suggestion, path)
  }

  /// Distributes positional values over the declared arguments.
  private static func assign(
    _ positionals: [String], _ afterTerminator: [String]?, to declared: [ArgumentDefinition],
    in values: inout ParsedValues, _ path: [any ParsableCommand.Type]
  ) throws(UsageError) {
    let strategies = declared.map { definition -> ArgumentArrayParsingStrategy? in
      if case .positional(let strategy) = definition.kind { return strategy }
      return nil
    }
    var remaining = positionals[...]
    var terminated = afterTerminator ?? []
    // Without an argument that takes what follows `--`, what follows it is
    // positional values that may look like options (`import -- --odd.plist`).
    if !strategies.contains(.postTerminator) {
      remaining += terminated
      terminated = []
    }
    // A value no argument can take is reported before a missing one.
    let singles = strategies.filter { $0 == nil }.count
    if !strategies.contains(.remaining), remaining.count > singles {
      throw error(UsageError.unexpectedArgument(remaining[singles]), path)
    }
    for (definition, strategy) in zip(declared, strategies) {
      var taken: [String]
      switch strategy {
      case nil:
        taken = Array(remaining.prefix(1))
        remaining = remaining.dropFirst()
      case .remaining:
        taken = Array(remaining) + terminated
        remaining = []
        terminated = []
      case .postTerminator:
        taken = terminated
        terminated = []
      }
      if taken.isEmpty {
        guard case .value(let absent) = definition.absent else {
          throw error(UsageError.missingArgument(definition.synopsis), path)
        }
        values[definition.path] = absent
        continue
      }
      var typed: [any Sendable] = []
      for value in taken { typed.append(try Self.typed(value, definition, path)) }
      values[definition.path] = definition.collect(typed)
    }
  }

  /// `value` as `definition`'s type reads it, else a usage error that shows the
  /// value as the type does (a URL's password hidden) and says what a value
  /// must be when the type says.
  private static func typed(
    _ value: String, _ definition: ArgumentDefinition, _ path: [any ParsableCommand.Type]
  ) throws(UsageError) -> any Sendable {
    guard let typed = definition.convert(value) else {
      throw error(
        UsageError.invalidValue(
          definition.shown(value), definition.synopsis, expected: definition.expectation), path)
    }
    return typed
  }

  /// The usage error `message` of the last command of `path`.
  static func error(_ message: String, _ path: [any ParsableCommand.Type]) -> UsageError {
    UsageError(
      message: message, commandPath: path.map { $0.commandName },
      usage: HelpGenerator.usage(for: path))
  }
}
