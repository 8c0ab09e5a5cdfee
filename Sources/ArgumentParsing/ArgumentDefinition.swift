/// One declared option, flag, positional argument or environment variable,
/// as the parser, help and completion see it
/// (``ParsableArguments/definitions(prefix:)``).
struct ArgumentDefinition: Sendable {
  enum Kind: Sendable {
    /// `--name value`.
    case option(parsing: SingleValueParsingStrategy, isRepeating: Bool)
    /// `--name`, and `--no-name` when inverted.
    case flag(inversion: String?)
    /// A positional value, or several.
    case positional(ArgumentArrayParsingStrategy?)
    /// Only an environment variable (`TPNS_TOKEN`), no command-line name.
    case environment
  }

  var kind: Kind
  /// The property's path from the command: `["options", "server"]`.
  var key: [String]
  var long: String? = nil
  var short: Character? = nil
  /// The value's name in usage (`seconds`); the argument's name for a positional.
  var valueName = ""
  var help: String
  /// The environment variable read when the option is not given.
  var environment: String? = nil
  /// The default as help shows it.
  var defaultDescription: String? = nil
  var completion = CompletionKind.default
  /// What a value must be (``ExpressibleByArgument/expectation``), if said.
  var expectation: String? = nil
  /// A given text as an error shows it (``ExpressibleByArgument/shown(_:)``).
  var shown: @Sendable (String) -> String = { $0 }
  /// One given value, typed; nil when it is invalid. (A flag takes none.)
  var convert: @Sendable (String) -> (any Sendable)? = { _ in nil }
  /// The property's value from every value given, in order (never empty).
  var collect: @Sendable ([any Sendable]) -> any Sendable = { $0[$0.count - 1] }
  /// The property's value when nothing was given, if it may be left out.
  var absent: Absence

  var path: String { key.joined(separator: ".") }

  /// Whether it may be left out (it has a default, is optional or is a flag).
  var isOptional: Bool {
    if case .value = absent { true } else { false }
  }

  var isPositional: Bool {
    if case .positional = kind { true } else { false }
  }

  var isFlag: Bool {
    if case .flag = kind { true } else { false }
  }

  var isEnvironment: Bool {
    if case .environment = kind { true } else { false }
  }

  /// Given by name: an option or a flag.
  var isNamed: Bool { !isPositional && !isEnvironment }

  /// The `--no-` name of an inverted flag.
  var inversion: String? {
    if case .flag(let inversion) = kind { inversion } else { nil }
  }

  var takesValue: Bool {
    if case .option = kind { true } else { false }
  }

  var isRepeating: Bool {
    if case .option(_, let isRepeating) = kind { isRepeating } else { false }
  }

  /// How errors name it: `--port <port>`, `--quiet`, `<uid>`.
  var synopsis: String {
    switch kind {
    case .option: return "--\(long ?? "") <\(valueName)>"
    case .flag: return "--\(long ?? "")"
    case .positional: return "<\(valueName)>"
    case .environment: return environment ?? ""
    }
  }

  /// How usage shows it: `[--port <port>]`, `[--uid <uid> ...]`, `<uid> ...`,
  /// `[--dev|--no-dev]`, `-- <command> ...`; a manual page writes the names
  /// (`name`) and values (`value`) in its own fonts.
  func usage(
    name: (String) -> String = { $0 }, value: (String) -> String = { "<\($0)>" }
  ) -> String {
    var text: String
    switch kind {
    case .option: text = name("--\(long ?? "")") + " " + value(valueName)
    case .flag(let inversion?): text = name("--\(long ?? "")") + "|" + name("--\(inversion)")
    case .flag: text = name("--\(long ?? "")")
    case .positional(let strategy):
      text = value(valueName) + (strategy == nil ? "" : " ...")
      if strategy == .postTerminator { text = name("--") + " " + text }
    case .environment: text = ""
    }
    if isRepeating { text += " ..." }
    return isOptional ? "[\(text)]" : text
  }

  /// How help's `OPTIONS:` labels it: `-p, --port <port>`, `--dev/--no-dev`.
  var label: String {
    if let inversion { return "--\(long ?? "")/--\(inversion)" }
    if isPositional { return synopsis }
    return (short.map { "-\($0), " } ?? "") + synopsis
  }

  /// Every name it answers to: `-q`, `--quiet`, `--no-dev`.
  var names: [String] {
    [short.map { "-\($0)" }, long.map { "--\($0)" }, inversion.map { "--\($0)" }]
      .compactMap { $0 }
  }

  /// The help with what the declaration adds: `(env TPNS_SERVER; default: …)`.
  var fullHelp: String {
    var notes: [String] = []
    if let environment, !isEnvironment {
      notes.append(isFlag ? "env \(environment)=1" : "env \(environment)")
    }
    if let defaultDescription { notes.append("default: \(defaultDescription)") }
    return notes.isEmpty ? help : "\(help) (\(notes.joined(separator: "; ")))"
  }

  // The built-ins every command has.
  static let help = ArgumentDefinition(
    kind: .flag(inversion: nil), key: ["help"], long: "help", short: "h",
    help: "Show help information.", absent: .value(false))
  static let version = ArgumentDefinition(
    kind: .flag(inversion: nil), key: ["version"], long: "version", help: "Show the version.",
    absent: .value(false))

  /// The built-ins of a command so configured: `--version` (the root's, when
  /// it has one) and `--help`.
  static func builtins(_ configuration: CommandConfiguration) -> [ArgumentDefinition] {
    configuration.version.isEmpty ? [help] : [version, help]
  }
}

extension ArgumentDefinition {
  /// A definition whose values are `Element`s that `validate` accepts: a
  /// repeating option or an array argument collects all, any other the last.
  init<Element: ExpressibleByArgument>(
    _: Element.Type, kind: Kind, key: [String], long: String? = nil, short: Character? = nil,
    valueName: String, help: String, environment: String? = nil,
    defaultDescription: String? = nil, completion: CompletionKind?,
    validate: (@Sendable (Element) -> Bool)?, expectation: String? = nil, absent: Absence
  ) {
    self.init(
      kind: kind, key: key, long: long, short: short, valueName: valueName, help: help,
      environment: environment, defaultDescription: defaultDescription,
      completion: completion ?? Element.defaultCompletionKind,
      // A `validate` narrows the type: only its own expectation says what it allows.
      expectation: expectation ?? (validate == nil ? Element.expectation : nil),
      shown: { Element.shown($0) },
      convert: { text in
        guard let value = Element(argument: text), validate?(value) ?? true else { return nil }
        return value
      }, absent: absent)
    if case .positional(_?) = kind { collect = { $0.compactMap { $0 as? Element } } }
    if isRepeating { collect = { $0.compactMap { $0 as? Element } } }
  }
}

/// What a property is when its option or argument is not given. (Its own
/// enum: an optional property's nil, boxed as `any Sendable?`, would read as
/// "required".)
enum Absence: Sendable {
  case required
  case value(any Sendable)
}

/// How an option takes its value from the next argument (swift-argument-parser's
/// names). A value given as `--name=value` is always taken whole.
public enum SingleValueParsingStrategy: Sendable {
  /// The next argument, unless it looks like an option: `-` alone and negative
  /// numbers (`-5`, `-1.5`) are values.
  case next
  /// The next argument, whatever it is (`--message "-10 degrees"`): for free text.
  case unconditional
}

/// How an array argument takes its values (swift-argument-parser's names).
public enum ArgumentArrayParsingStrategy: Sendable {
  /// Every remaining positional value: `<uid> ...`.
  case remaining
  /// Everything after a `--`, options included: `-- <command> ...`.
  case postTerminator
}
