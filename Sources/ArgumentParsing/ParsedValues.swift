/// The values a command line gave one command: options, flags and arguments.
public struct ParsedValues: Sendable, Equatable {
  /// Option values by long name (the last one given wins).
  public internal(set) var options: [String: String] = [:]
  /// Every value given to each option, in order, by long name.
  public internal(set) var repeatedOptions: [String: [String]] = [:]
  /// Flags given, by long name.
  public internal(set) var flags: Set<String> = []
  /// Positional values by argument name.
  public internal(set) var arguments: [String: [String]] = [:]
  /// Declared defaults, by long name.
  var defaults: [String: String] = [:]

  public init() {}

  /// The value of `--name`, or its default.
  public func value(_ name: String) -> String? { options[name] ?? defaults[name] }

  /// Every value given to `--name` (declared ``Option/isRepeatable``), in
  /// order; empty when absent.
  public func values(_ name: String) -> [String] { repeatedOptions[name] ?? [] }

  /// The value of `--name` (or its default) converted to `T`; nil when absent.
  /// Declare a `validate` on the option so that a value that does not convert is a
  /// usage error before this is reached.
  public func value<T: LosslessStringConvertible>(_ name: String, as type: T.Type) -> T? {
    value(name).flatMap(T.init)
  }

  /// Whether `--name` was given.
  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// The values of the positional argument `name` (empty when absent).
  public func argument(_ name: String) -> [String] { arguments[name] ?? [] }

  /// Records a value of `option`.
  mutating func add(_ value: String, for option: Option) {
    options[option.name] = value
    repeatedOptions[option.name, default: []].append(value)
  }
}
