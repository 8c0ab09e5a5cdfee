/// A value read only from the environment, declared like an option so that
/// help, man pages and parse tables know it: `@EnvironmentVariable("TPNS_TOKEN",
/// help: "The push token.") var token: String?`. Empty counts as not set.
@propertyWrapper
public struct EnvironmentVariable<Value: Sendable>: Decodable, Sendable {
  var storage: WrapperStorage<Value>

  public var wrappedValue: Value {
    get { storage.value("@EnvironmentVariable") }
    set { storage = .value(newValue) }
  }

  public init(from decoder: any Decoder) throws {
    storage = try decoder.wrapperStorage(Value.self, wrapper: "@EnvironmentVariable")
  }

  /// The variable `name`, nil when it is not set or empty.
  public init<Element: ExpressibleByArgument>(_ name: String, help: ArgumentHelp)
  where Value == Element? {
    storage = .declaring { key in
      [
        ArgumentDefinition(
          kind: .environment, key: key, valueName: name, help: help.abstract, environment: name,
          convert: { Element(argument: $0) }, absent: .value(Element?.none))
      ]
    }
  }
}
