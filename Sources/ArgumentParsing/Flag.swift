/// A flag: present or not, as in swift-argument-parser.
///
/// ```swift
/// @Flag(name: .shortAndLong, help: "Print nothing but errors.") var quiet = false
/// @Flag(inversion: .prefixedNo, help: "Use the sandbox.") var dev: Bool?  // --dev/--no-dev
/// @Flag(help: "Require https.", environment: "TPNS_REQUIRE_HTTPS") var requireHTTPS = false
/// ```
///
/// An inverted flag is nil when neither name is given; giving both is a usage
/// error. A flag's `environment` variable is read as 1/true/yes/on or
/// 0/false/no/off (empty: not set).
@propertyWrapper
public struct Flag<Value: Sendable>: Decodable, Sendable {
  var storage: WrapperStorage<Value>

  public var wrappedValue: Value {
    get { storage.value("@Flag") }
    set { storage = .value(newValue) }
  }

  public init(from decoder: any Decoder) throws {
    storage = try decoder.wrapperStorage(Value.self, wrapper: "@Flag")
  }
}

/// How a flag's opposite is spelled.
public enum FlagInversion: Sendable {
  /// `--name` and `--no-name`.
  case prefixedNo
}

extension Flag where Value == Bool {
  /// A flag that is false unless given.
  public init(
    wrappedValue: Bool = false, name: NameSpecification = .long, help: ArgumentHelp,
    environment: String? = nil
  ) {
    storage = .declaring { key in
      let names = name.names(for: key.last ?? "")
      return [
        ArgumentDefinition(
          kind: .flag(inversion: nil), key: key, long: names.long, short: names.short,
          help: help.abstract, environment: environment, absent: .value(wrappedValue))
      ]
    }
  }
}

extension Flag where Value == Bool? {
  /// `--name` (true), `--no-name` (false), or neither (nil).
  public init(name: NameSpecification = .long, inversion: FlagInversion, help: ArgumentHelp) {
    storage = .declaring { key in
      let names = name.names(for: key.last ?? "")
      return [
        ArgumentDefinition(
          kind: .flag(inversion: names.long.map { "no-\($0)" }), key: key, long: names.long,
          short: names.short, help: help.abstract, absent: .value(Bool?.none))
      ]
    }
  }
}
