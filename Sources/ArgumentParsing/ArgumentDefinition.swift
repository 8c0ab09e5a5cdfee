/// One declared option, flag, positional argument or environment variable,
/// as the parser, help and completion see it. Built by the property wrappers
/// (``Option``, ``Flag``, ``Argument``, ``EnvironmentVariable``) from their
/// declaration (recorded as the type's `init()` makes it) and the property's name (from a naming decode).
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
  var long: String?
  var short: Character?
  /// The value's name in usage (`seconds`); the argument's name for a positional.
  var valueName: String
  var help: String
  /// The environment variable read when the option is not given.
  var environment: String?
  /// Whether it may be left out (it has a default, is optional or is a flag).
  var isOptional: Bool
  /// The default as help shows it.
  var defaultDescription: String?
  var completion: CompletionKind
  /// What a value must be (``ExpressibleByArgument/expectation``), if said.
  var expectation: String? = nil
  /// A given text as an error shows it (``ExpressibleByArgument/shown(_:)``).
  var shown: @Sendable (String) -> String = { $0 }
  /// One given value, typed; nil when it is invalid.
  var convert: @Sendable (String) -> (any Sendable)?
  /// The property's value from every value given, in order (never empty).
  var collect: @Sendable ([any Sendable]) -> any Sendable
  /// The property's value when nothing was given, if it may be left out.
  var absent: Absence

  /// The key as ``ParsedValues`` stores it.
  var path: String { key.joined(separator: ".") }

  var isPositional: Bool {
    if case .positional = kind { return true }
    return false
  }

  var isFlag: Bool {
    if case .flag = kind { return true }
    return false
  }

  /// The `--no-` name of an inverted flag.
  var inversion: String? {
    if case .flag(let inversion) = kind { return inversion }
    return nil
  }

  var isRepeating: Bool {
    if case .option(_, let isRepeating) = kind { return isRepeating }
    return false
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
  /// `[--dev|--no-dev]`, `-- <command> ...`.
  var usage: String {
    var text: String
    switch kind {
    case .flag(let inversion?): text = "--\(long ?? "")|--\(inversion)"
    case .positional(let strategy?):
      text = synopsis + " ..."
      if strategy == .postTerminator { text = "-- " + text }
    default: text = synopsis + (isRepeating ? " ..." : "")
    }
    return isOptional ? "[\(text)]" : text
  }

  /// How help's `OPTIONS:` labels it: `-p, --port <port>`, `--dev/--no-dev`.
  var label: String {
    if let inversion { return "--\(long ?? "")/--\(inversion)" }
    if isPositional { return synopsis }
    return (short.map { "-\($0), " } ?? "") + synopsis
  }

  /// The help with what the declaration adds: `(env TPNS_SERVER; default: …)`.
  var fullHelp: String {
    var notes: [String] = []
    if let environment, !(kind.isEnvironment) {
      notes.append(isFlag ? "env \(environment)=1" : "env \(environment)")
    }
    if let defaultDescription { notes.append("default: \(defaultDescription)") }
    return notes.isEmpty ? help : "\(help) (\(notes.joined(separator: "; ")))"
  }

  /// Whether `name` (`--port`, `-p`, `--no-dev`) names it, and what a flag so
  /// named sets.
  func matches(_ name: String) -> Bool {
    switch kind {
    case .positional, .environment: return false
    default: break
    }
    if name.hasPrefix("--") {
      let long = String(name.dropFirst(2))
      return long == self.long || long == inversion
    }
    return name.count == 2 && name.hasPrefix("-") && name.last == short
  }

  // The built-ins every command has.
  static let help = builtin("help", short: "h", help: "Show help information.")
  static let version = builtin("version", short: nil, help: "Show the version.")

  private static func builtin(_ name: String, short: Character?, help: String)
    -> ArgumentDefinition
  {
    ArgumentDefinition(
      kind: .flag(inversion: nil), key: [name], long: name, short: short, valueName: name,
      help: help, environment: nil, isOptional: true, defaultDescription: nil,
      completion: .default, convert: { _ in true }, collect: { _ in true }, absent: .value(false))
  }
}

/// What a property is when its option or argument is not given. (Its own
/// enum: an optional property's nil, boxed as `any Sendable?`, would read as
/// "required".)
enum Absence: Sendable {
  case required
  case value(any Sendable)

  /// Whether the option or argument may be left out.
  var isAllowed: Bool {
    if case .value = self { return true }
    return false
  }
}

extension ArgumentDefinition.Kind {
  var isEnvironment: Bool {
    if case .environment = self { return true }
    return false
  }
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
