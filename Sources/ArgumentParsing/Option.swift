/// A named option (`--port <port>`) or flag (`--quiet`).
public struct Option: Sendable {
  /// How a value given as the next argument (`--name value`) is taken.
  /// A value given as `--name=value` is always taken whole.
  public enum Parsing: Sendable {
    /// The next argument, unless it looks like an option (swift-argument-parser's
    /// default): `-` alone and negative numbers (`-5`, `-1.5`) are values.
    case next
    /// The next argument, whatever it is (`--message "-10 degrees"`,
    /// `--message --json`): for free text that may start with `-`.
    case unconditional
  }

  /// The long name, without `--`.
  public var name: String
  /// The one-letter name, used as `-x`.
  public var shortName: Character?
  /// The value's name in help (`<port>`); nil for a flag, which takes no value.
  public var valueName: String?
  /// One line of help.
  public var help: String
  /// The value used when the option is absent; shown as `(default: …)`.
  public var defaultValue: String?
  /// Whether the option must be given.
  public var isRequired: Bool
  /// Whether every value given is kept (`--uid A --uid B`); otherwise the last one wins.
  public var isRepeatable: Bool
  /// How a value in the next argument is taken.
  public var parsing: Parsing
  /// Whether a value is acceptable; a refused value is a usage error.
  public var validate: @Sendable (String) -> Bool

  /// An option taking a value.
  public static func option(
    _ name: String, short: Character? = nil, valueName: String, help: String,
    defaultValue: String? = nil, isRequired: Bool = false, isRepeatable: Bool = false,
    parsing: Parsing = .next, validate: @escaping @Sendable (String) -> Bool = { _ in true }
  ) -> Option {
    Option(
      name: name, shortName: short, valueName: valueName, help: help, defaultValue: defaultValue,
      isRequired: isRequired, isRepeatable: isRepeatable, parsing: parsing, validate: validate)
  }

  /// A flag: present or not.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> Option {
    Option(
      name: name, shortName: short, valueName: nil, help: help, defaultValue: nil,
      isRequired: false, isRepeatable: false, parsing: .next, validate: { _ in true })
  }

  /// Whether the option is a flag.
  public var isFlag: Bool { valueName == nil }

  /// How errors name it: `--port <port>` or `--quiet`.
  public var synopsis: String {
    valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
  }

  /// How usage shows it: `[--port <port>]`, `--name <name>`, `[--uid <uid> ...]`.
  var usage: String {
    let text = synopsis + (isRepeatable ? " ..." : "")
    return isRequired ? text : "[\(text)]"
  }

  /// How help's `OPTIONS:` labels it: `-p, --port <port>`.
  var label: String {
    (shortName.map { "-\($0), " } ?? "") + synopsis
  }

  /// The built-in `-h, --help`.
  static let help = Option.flag("help", short: "h", help: "Show help information.")

  /// The built-in `--version` of a command with a ``CommandConfiguration/version``.
  static let version = Option.flag("version", help: "Show the version.")
}
