/// A type whose properties are declared options, flags and arguments
/// (``Option``, ``Flag``, ``Argument``, ``OptionGroup``, ``EnvironmentVariable``),
/// as in swift-argument-parser: `init()` builds the declarations, which
/// `Mirror` reads for parsing, help and completion; the parsed values are
/// then decoded into a new instance (`Decodable`, synthesized), and
/// `validate()` checks what the declarations cannot say alone.
public protocol ParsableArguments: Decodable, Sendable {
  /// The declarations (every property's wrapper holds its declaration, not a value).
  init()

  /// Throws a ``ValidationError`` (a usage error, exit 64) when values parse
  /// but do not make sense together.
  mutating func validate() throws
}

extension ParsableArguments {
  public mutating func validate() throws {}

  /// The declarations of `Self`'s properties, in declaration order, with keys
  /// from `prefix`.
  static func definitions(prefix: [String] = []) -> [ArgumentDefinition] {
    Mirror(reflecting: Self()).children.flatMap { child -> [ArgumentDefinition] in
      // A wrapped property's storage is labelled `_name`.
      guard let label = child.label, label.hasPrefix("_"),
        let declaration = child.value as? any ArgumentDeclaration
      else { return [] }
      return declaration.definitions(key: prefix + [String(label.dropFirst())])
    }
  }
}

extension ParsableArguments {
  /// Whether `name` (`--db`, `-p`) names a declared option that takes a value
  /// (not a flag): for tools that must find where options end, as `exec`
  /// finds its COMMAND.
  public static func optionTakesValue(named name: String) -> Bool {
    definitions().contains { definition in
      if case .option = definition.kind { return definition.matches(name) }
      return false
    }
  }
}
