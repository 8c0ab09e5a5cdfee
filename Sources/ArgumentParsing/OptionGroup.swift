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
    storage = Self.declaring { key in Value.definitions(prefix: key) }
  }

  public init(from decoder: any Decoder) throws {
    if let decoder = decoder as? ArgumentDecoder, let names = decoder.names {
      // Named only: the group's own declarations are read from its type.
      names.names.append(decoder.codingPath.last?.stringValue ?? "")
      storage = .definition { _ in [] }
      return
    }
    var value = try Value(from: decoder)
    try value.validate()
    storage = .value(value)
  }

  func definitions(key: [String]) -> [ArgumentDefinition] { Self.definitions(storage, key: key) }
}
