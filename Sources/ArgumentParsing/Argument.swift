/// A positional argument (`<uid>`).
public struct Argument: Sendable {
  /// How should it be parsed.
  public enum Parsing: Sendable {
    /// One value.
    case single
    /// Every remaining value (at least one unless optional): `<uid> ...`.
    case remaining
    /// Everything after a `--` terminator, options included: `-- <command> ...`.
    case postTerminator
  }

  /// The name shown in help and errors, without brackets (`uid`).
  public var name: String
  /// One line of help.
  public var help: String
  /// Whether it may be left out.
  public var isOptional: Bool
  /// How values are taken from the command line.
  public var parsing: Parsing
  /// Whether a value is acceptable; a refused value is a usage error.
  public var validate: @Sendable (String) -> Bool

  /// An argument shown as `<name>`.
  public init(
    _ name: String, help: String, isOptional: Bool = false, parsing: Parsing = .single,
    validate: @escaping @Sendable (String) -> Bool = { _ in true }
  ) {
    self.name = name
    self.help = help
    self.isOptional = isOptional
    self.parsing = parsing
    self.validate = validate
  }

  /// `<uid>`, as errors name it.
  public var synopsis: String { "<\(name)>" }

  /// How usage shows it: `<uid>`, `[<uid>]`, `<uid> ...`, `-- <command> ...`.
  var usage: String {
    var text = synopsis
    if parsing != .single { text += " ..." }
    if parsing == .postTerminator { text = "-- " + text }
    return isOptional ? "[\(text)]" : text
  }
}
