/// A named option taking a value, declared on a property as in
/// swift-argument-parser:
///
/// ```swift
/// @Option(help: ArgumentHelp("The port.", valueName: "port")) var port: UInt16 = 7380
/// @Option(name: .customLong("db"), help: "The SQLite file.") var database: String?
/// @Option(name: .customLong("uid"), help: "A UID (repeatable).") var uids: [String] = []
/// ```
///
/// A value that does not convert (``ExpressibleByArgument``) or that `validate`
/// refuses is a usage error, which says what a value must be: `expectation`
/// (for a range `validate` keeps: `a whole number from 1 to 64`), else the
/// type's own; `environment` names a variable read when the option is not given.
@propertyWrapper
public struct Option<Value: Sendable>: Decodable, Sendable {
  var storage: WrapperStorage<Value>

  public var wrappedValue: Value {
    get { storage.value("@Option") }
    set { storage = .value(newValue) }
  }

  public init(from decoder: any Decoder) throws {
    storage = try decoder.wrapperStorage(Value.self, wrapper: "@Option")
  }

  init<Element: ExpressibleByArgument>(
    _: Element.Type, name: NameSpecification, parsing: SingleValueParsingStrategy,
    help: ArgumentHelp, environment: String?, isRepeating: Bool = false,
    defaultDescription: String?, completion: CompletionKind?,
    validate: (@Sendable (Element) -> Bool)?, expectation: String?, absent: Absence
  ) {
    storage = .declaring { key in
      let names = name.names(for: key.last ?? "")
      return [
        ArgumentDefinition(
          Element.self, kind: .option(parsing: parsing, isRepeating: isRepeating), key: key,
          long: names.long, short: names.short, valueName: help.valueName ?? names.long ?? "value",
          help: help.abstract, environment: environment, defaultDescription: defaultDescription,
          completion: completion, validate: validate, expectation: expectation, absent: absent)
      ]
    }
  }
}

extension Option where Value: ExpressibleByArgument {
  /// An option with a default: `@Option var timeout: Seconds = 30`.
  public init(
    wrappedValue: Value, name: NameSpecification = .long,
    parsing: SingleValueParsingStrategy = .next, help: ArgumentHelp, environment: String? = nil,
    completion: CompletionKind? = nil, validate: (@Sendable (Value) -> Bool)? = nil,
    expectation: String? = nil
  ) {
    self.init(
      Value.self, name: name, parsing: parsing, help: help, environment: environment,
      defaultDescription: wrappedValue.defaultValueDescription, completion: completion,
      validate: validate, expectation: expectation, absent: .value(wrappedValue))
  }

  /// An option that must be given.
  public init(
    name: NameSpecification = .long, parsing: SingleValueParsingStrategy = .next,
    help: ArgumentHelp, environment: String? = nil, completion: CompletionKind? = nil,
    validate: (@Sendable (Value) -> Bool)? = nil, expectation: String? = nil
  ) {
    self.init(
      Value.self, name: name, parsing: parsing, help: help, environment: environment,
      defaultDescription: nil, completion: completion, validate: validate,
      expectation: expectation, absent: .required)
  }
}

extension Option {
  /// An option that may be left out (nil); `defaultDescription` says in help what
  /// stands in for it (`the stored one, else ios`).
  public init<Element: ExpressibleByArgument>(
    name: NameSpecification = .long, parsing: SingleValueParsingStrategy = .next,
    help: ArgumentHelp, environment: String? = nil, defaultDescription: String? = nil,
    completion: CompletionKind? = nil, validate: (@Sendable (Element) -> Bool)? = nil,
    expectation: String? = nil
  ) where Value == Element? {
    self.init(
      Element.self, name: name, parsing: parsing, help: help, environment: environment,
      defaultDescription: defaultDescription, completion: completion, validate: validate,
      expectation: expectation, absent: .value(Element?.none))
  }

  /// A repeatable option: every value given, in order (`--uid A --uid B`).
  public init<Element: ExpressibleByArgument>(
    wrappedValue: [Element] = [], name: NameSpecification = .long,
    parsing: SingleValueParsingStrategy = .next, help: ArgumentHelp,
    completion: CompletionKind? = nil, validate: (@Sendable (Element) -> Bool)? = nil,
    expectation: String? = nil
  ) where Value == [Element] {
    self.init(
      Element.self, name: name, parsing: parsing, help: help, environment: nil, isRepeating: true,
      defaultDescription: nil, completion: completion, validate: validate,
      expectation: expectation, absent: .value(wrappedValue))
  }
}
