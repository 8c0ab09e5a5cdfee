/// A type whose properties are declared options, flags and arguments
/// (``Option``, ``Flag``, ``Argument``, ``OptionGroup``, ``EnvironmentVariable``),
/// as in swift-argument-parser: the parsed values are decoded into a new instance
/// (`Decodable`, synthesized), and `validate()` checks what the declarations cannot
/// say alone.
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
  /// from `prefix`: as `Self()` makes them (``DeclarationCollector``), named by
  /// a decode that lists the properties in the same order (``NameRecorder``).
  /// Neither casts a property to a protocol nor reflects on the type, which
  /// would make the runtime scan the binary's conformance records (see
  /// docs/PERFORMANCE.md).
  static func definitions(prefix: [String] = []) -> [ArgumentDefinition] {
    let builds = DeclarationCollector.collect { _ = Self() }
    let recorder = NameRecorder()
    _ = try? Self(from: ArgumentDecoder(values: ParsedValues(), codingPath: [], names: recorder))
    let properties = recorder.properties
    precondition(
      properties.count == builds.count,
      "\(Self.self): every stored property must be declared with @Option, @Flag, @Argument, "
        + "@OptionGroup or @EnvironmentVariable")
    return zip(properties, builds).flatMap { property, build in
      (property.build ?? build)(prefix + [property.name])
    }
  }

  /// Whether `name` (`--db`, `-p`) names a declared option that takes a value
  /// (not a flag): for tools that must find where options end, as `exec`
  /// finds its COMMAND.
  public static func optionTakesValue(named name: String) -> Bool {
    definitions().contains { $0.takesValue && $0.names.contains(name) }
  }
}
