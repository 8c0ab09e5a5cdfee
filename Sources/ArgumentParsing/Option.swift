/// A named option (`--port <port>`) or flag (`--quiet`).
public struct Option: Sendable {
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
  /// Whether a value is acceptable; a refused value is a usage error.
  public var validate: @Sendable (String) -> Bool

  /// An option taking a value.
  public static func option(
    _ name: String, short: Character? = nil, valueName: String, help: String,
    defaultValue: String? = nil, isRequired: Bool = false,
    validate: @escaping @Sendable (String) -> Bool = { _ in true }
  ) -> Option {
    Option(
      name: name, shortName: short, valueName: valueName, help: help, defaultValue: defaultValue,
      isRequired: isRequired, validate: validate)
  }

  /// A flag: present or not.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> Option {
    Option(
      name: name, shortName: short, valueName: nil, help: help, defaultValue: nil,
      isRequired: false, validate: { _ in true })
  }

  /// Whether the option is a flag.
  public var isFlag: Bool { valueName == nil }

  /// How errors and usage name it: `--port <port>` or `--quiet`.
  public var synopsis: String {
    valueName.map { "--\(name) <\($0)>" } ?? "--\(name)"
  }

  /// How help's `OPTIONS:` labels it: `-p, --port <port>`.
  var label: String {
    (shortName.map { "-\($0), " } ?? "") + synopsis
  }

  /// The built-in `-h, --help`.
  static let help = Option.flag("help", short: "h", help: "Show help information.")
}
