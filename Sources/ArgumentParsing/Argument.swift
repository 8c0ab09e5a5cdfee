/// A positional argument, declared on a property as in swift-argument-parser:
///
/// ```swift
/// @Argument(help: "The device's UID.") var uid: String
/// @Argument(help: ArgumentHelp("UIDs.", valueName: "uid")) var uids: [String] = []
/// @Argument(parsing: .postTerminator, help: "The command.") var command: [String]
/// ```
///
/// An array without a default needs at least one value.
@propertyWrapper
public struct Argument<Value: Sendable>: Decodable, Sendable {
  var storage: WrapperStorage<Value>

  public var wrappedValue: Value {
    get { storage.value("@Argument") }
    set { storage = .value(newValue) }
  }

  public init(from decoder: any Decoder) throws {
    storage = try decoder.wrapperStorage(Value.self, wrapper: "@Argument")
  }

  init<Element: ExpressibleByArgument>(
    _: Element.Type, strategy: ArgumentArrayParsingStrategy?, help: ArgumentHelp,
    completion: CompletionKind?, validate: (@Sendable (Element) -> Bool)?, absent: Absence
  ) {
    storage = .declaring { key in
      [
        ArgumentDefinition(
          Element.self, kind: .positional(strategy), key: key,
          valueName: help.valueName ?? (key.last ?? "value").kebabCased, help: help.abstract,
          completion: completion, validate: validate, absent: absent)
      ]
    }
  }
}

extension Argument where Value: ExpressibleByArgument {
  /// One value that must be given.
  public init(
    help: ArgumentHelp, completion: CompletionKind? = nil,
    validate: (@Sendable (Value) -> Bool)? = nil
  ) {
    self.init(
      Value.self, strategy: nil, help: help, completion: completion, validate: validate,
      absent: .required)
  }
}

extension Argument {
  /// One value that may be left out (nil).
  public init<Element: ExpressibleByArgument>(
    help: ArgumentHelp, completion: CompletionKind? = nil,
    validate: (@Sendable (Element) -> Bool)? = nil
  ) where Value == Element? {
    self.init(
      Element.self, strategy: nil, help: help, completion: completion, validate: validate,
      absent: .value(Element?.none))
  }

  /// Every remaining value (or every value after `--`): at least one, unless
  /// declared with a default (`= []`).
  public init<Element: ExpressibleByArgument>(
    parsing: ArgumentArrayParsingStrategy = .remaining, help: ArgumentHelp,
    completion: CompletionKind? = nil, validate: (@Sendable (Element) -> Bool)? = nil
  ) where Value == [Element] {
    self.init(
      Element.self, strategy: parsing, help: help, completion: completion, validate: validate,
      absent: .required)
  }

  /// Every remaining value, none at all allowed.
  public init<Element: ExpressibleByArgument>(
    wrappedValue: [Element], parsing: ArgumentArrayParsingStrategy = .remaining,
    help: ArgumentHelp, completion: CompletionKind? = nil,
    validate: (@Sendable (Element) -> Bool)? = nil
  ) where Value == [Element] {
    self.init(
      Element.self, strategy: parsing, help: help, completion: completion, validate: validate,
      absent: .value(wrappedValue))
  }
}
