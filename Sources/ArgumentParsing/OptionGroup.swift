/// Options declared once in a ``ParsableArguments`` type and shared by the
/// commands that include it, as in swift-argument-parser:
/// `@OptionGroup var options: SendingOptions`. The group's `validate()` runs
/// once it is parsed, before the command's.
@propertyWrapper
public struct OptionGroup<Value: ParsableArguments>: Decodable, Sendable, ArgumentDeclaration {
  var storage: WrapperStorage<Value>

  public var wrappedValue: Value {
    get { storage.value("@OptionGroup") }
    set { storage = .value(newValue) }
  }

  public init() {
    storage = .definition { key in Value.definitions(prefix: key) }
  }

  public init(from decoder: any Decoder) throws {
    var value = try Value(from: decoder)
    try value.validate()
    storage = .value(value)
  }

  func definitions(key: [String]) -> [ArgumentDefinition] { Self.definitions(storage, key: key) }
}
