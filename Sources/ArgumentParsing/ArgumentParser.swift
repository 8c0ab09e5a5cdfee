/// Parses a command line against a tree of ``ParsableCommand`` types.
///
/// Rules, as swift-argument-parser: a subcommand is selected by the first argument;
/// `help [subcommand...]` as the first argument, or `-h`/`--help` anywhere before
/// `--`, asks for help, and `--version` the root's version; options are
/// `--name value`, `--name=value` or `-n value`; a value in the next argument may
/// not look like an option (then it is missing) unless the option parses
/// ``Option/Parsing/unconditional``; `-` alone is a value, and so is a negative
/// number (`-5`, `-1.5`) when no option of the command is named by a digit, as
/// in Python's argparse; `--` ends the options.
enum ArgumentParser {
  /// What a command line asks for.
  enum Outcome {
    case command(path: [any ParsableCommand.Type], values: ParsedValues)
    case help(path: [any ParsableCommand.Type])
    case version(String)
  }

  static func parse(_ arguments: [String], root: any ParsableCommand.Type) throws(UsageError)
    -> Outcome
  {
    var path: [any ParsableCommand.Type] = [root]
    var index = 0

    if arguments.first == "help" {
      for name in arguments.dropFirst() {
        guard let subcommand = path[path.count - 1].configuration.subcommand(named: name) else {
          throw unknownCommand(name, path)
        }
        path.append(subcommand)
      }
      return .help(path: path)
    }
    while index < arguments.count,
      let subcommand = path[path.count - 1].configuration.subcommand(named: arguments[index])
    {
      path.append(subcommand)
      index += 1
    }

    let configuration = path[path.count - 1].configuration
    var values = ParsedValues()
    for option in configuration.options {
      if let value = option.defaultValue { values.defaults[option.name] = value }
    }
    var positionals: [String] = []
    var afterTerminator: [String]?

    // Help wins over every other problem, as in swift-argument-parser.
    let beforeTerminator = arguments[index...].prefix { $0 != "--" }
    if beforeTerminator.contains("--help") || beforeTerminator.contains("-h") {
      return .help(path: path)
    }
    if !configuration.version.isEmpty, beforeTerminator.contains("--version") {
      return .version(configuration.version)
    }
    if configuration.isGroup {
      // Nothing of its own to parse: a subcommand or nothing (its help).
      guard let first = arguments[index...].first else { return .help(path: path) }
      if !looksLikeOption(first, in: configuration) { throw unknownCommand(first, path) }
    }

    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        afterTerminator = Array(arguments[index...])
        break
      }
      guard looksLikeOption(argument, in: configuration) else {
        positionals.append(argument)
        continue
      }
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = configuration.option(named: name) else {
        throw unknownOption(name, configuration, path)
      }
      if option.isFlag {
        guard inlineValue == nil else {
          throw error(UsageError.unexpectedArgument(argument), path)
        }
        values.flags.insert(option.name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.count,
        option.parsing == .unconditional || !looksLikeOption(arguments[index], in: configuration)
      {
        value = arguments[index]
        index += 1
      } else {
        throw error(UsageError.missingValue(option), path)
      }
      guard option.validate(value) else {
        throw error(UsageError.invalidValue(value, option.synopsis), path)
      }
      values.add(value, for: option)
    }

    for option in configuration.options where option.isRequired {
      guard values.options[option.name] != nil else {
        throw error(UsageError.missingValue(option), path)
      }
    }
    try assign(positionals, afterTerminator, to: configuration.arguments, in: &values, path)
    return .command(path: path, values: values)
  }

  /// Whether `argument` is an option (or flag) rather than a value: it starts
  /// with `-`, but is not `-` alone (standard input, by convention) nor a
  /// negative number, unless an option of `configuration` is named by a digit.
  static func looksLikeOption(_ argument: String, in configuration: CommandConfiguration) -> Bool {
    guard argument.hasPrefix("-"), argument != "-" else { return false }
    return !isNegativeNumber(argument)
      || configuration.options.contains { $0.shortName?.isNumber == true }
  }

  /// `-5`, `-1.5`, `-.5`, `-99999999999999999999`: a `-`, then a number.
  private static func isNegativeNumber(_ argument: String) -> Bool {
    let rest = argument.dropFirst()
    guard let first = rest.first, first.isASCII, first.isNumber || first == "." else {
      return false
    }
    return Double(rest) != nil
  }

  /// "Unknown option '--verbos'. Did you mean '--verbose'?"
  private static func unknownOption(
    _ name: String, _ configuration: CommandConfiguration, _ path: [any ParsableCommand.Type]
  ) -> UsageError {
    let long = (configuration.options + [Option.help]).map { "--" + $0.name }
    let suggestion = name.hasPrefix("--") ? name.nearest(among: long) : nil
    return error(UsageError.unknownOption(name, suggestion: suggestion), path)
  }

  /// "Unknown command 'lst'. Did you mean 'list'?", as git suggests the nearest one.
  private static func unknownCommand(_ name: String, _ path: [any ParsableCommand.Type])
    -> UsageError
  {
    let names = path[path.count - 1].configuration.subcommands.map { $0.configuration.commandName }
    return error(UsageError.unknownCommand(name, suggestion: name.nearest(among: names)), path)
  }

  /// Distributes positional values over the declared arguments.
  private static func assign(
    _ positionals: [String], _ afterTerminator: [String]?, to declared: [Argument],
    in values: inout ParsedValues, _ path: [any ParsableCommand.Type]
  ) throws(UsageError) {
    // A value no argument can take is reported before a missing one.
    let singles = declared.filter { $0.parsing == .single }.count
    if !declared.contains(where: { $0.parsing == .remaining }) {
      if positionals.count > singles {
        throw error(UsageError.unexpectedArgument(positionals[singles]), path)
      }
      if let extra = afterTerminator?.first,
        !declared.contains(where: { $0.parsing == .postTerminator })
      {
        throw error(UsageError.unexpectedArgument(extra), path)
      }
    }
    var remaining = positionals[...]
    var terminated = afterTerminator
    for argument in declared {
      var taken: [String]
      switch argument.parsing {
      case .single:
        taken = remaining.first.map { [$0] } ?? []
        remaining = remaining.dropFirst(taken.count)
      case .remaining:
        taken = Array(remaining) + (terminated ?? [])
        remaining = []
        terminated = nil
      case .postTerminator:
        taken = terminated ?? []
        terminated = nil
      }
      if taken.isEmpty && !argument.isOptional {
        throw error(UsageError.missingArgument(argument.synopsis), path)
      }
      for value in taken where !argument.validate(value) {
        throw error(UsageError.invalidValue(value, argument.synopsis), path)
      }
      if !taken.isEmpty { values.arguments[argument.name] = taken }
    }
    if let extra = remaining.first ?? terminated?.first {
      throw error(UsageError.unexpectedArgument(extra), path)
    }
  }

  /// The usage error `message` of the last command of `path`.
  static func error(_ message: String, _ path: [any ParsableCommand.Type]) -> UsageError {
    UsageError(
      message: message, commandPath: path.map { $0.configuration.commandName },
      usage: HelpGenerator.usage(for: path))
  }
}
