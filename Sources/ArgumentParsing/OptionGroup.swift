/// Options declared once in a ``ParsableArguments`` type and shared by the
/// commands that include it, as in swift-argument-parser:
/// `@OptionGroup var options: SendingOptions`. The group's `validate()` runs
/// once it is parsed, before the command's.
///
/// Only its decoding asks for a ``ParsableArguments``: a requirement on the
/// type would make the runtime look the conformance up in the binary's records
/// each time it builds an `OptionGroup<…>` type from its mangled name.
@propertyWrapper
public struct OptionGroup<Value: Sendable>: Sendable {
  var storage: WrapperStorage<Value>

  public var wrappedValue: Value {
    get { storage.value("@OptionGroup") }
    set { storage = .value(newValue) }
  }

  /// The group's place among its type's declarations; its own come from the
  /// naming decode (``init(from:)``), where `Value` is a ``ParsableArguments``
  /// (an `init()` that needs it would cost the declaring types their `init()`).
  public init() {
    storage = .declaring { _ in [] }
  }
}

extension OptionGroup: Decodable where Value: ParsableArguments {
  public init(from decoder: any Decoder) throws {
    if let decoder = decoder as? ArgumentDecoder, let names = decoder.names {
      // Named, with the group's declarations, which are read from its type.
      names.record(decoder.codingPath.last?.stringValue ?? "") { key in
        Value.definitions(prefix: key)
      }
      storage = .declared
      return
    }
    var value = try Value(from: decoder)
    try value.validate()
    storage = .value(value)
  }
}
