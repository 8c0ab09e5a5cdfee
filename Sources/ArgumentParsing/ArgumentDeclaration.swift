/// A property wrapper's state: before parsing, declared (its declaration recorded by
/// ``DeclarationCollector``); after, its value.
enum WrapperStorage<Value: Sendable>: Sendable {
  case declared
  case value(Value)

  /// The value; reading a declaration is a programming error, as in
  /// swift-argument-parser.
  func value(_ wrapper: String) -> Value {
    guard case .value(let value) = self else {
      fatalError(
        "\(wrapper) read before parsing: build commands with parse(_:), not init()")
    }
    return value
  }
}

/// What every property wrapper is: a source of definitions.
protocol ArgumentDeclaration {}

extension ArgumentDeclaration {
  /// The storage of a wrapper declared with `build`, which is recorded for
  /// the type whose declarations are being read (``DeclarationCollector``).
  static func declaring<Value>(
    _ build: @escaping @Sendable (_ key: [String]) -> [ArgumentDefinition]
  ) -> WrapperStorage<Value> {
    DeclarationCollector.record(build)
    return .declared
  }
}

extension Decoder {
  /// The storage of the wrapper being decoded: its parsed value, or in a
  /// naming decode, its name recorded and an empty declaration.
  func wrapperStorage<Value>(_ type: Value.Type, wrapper: String) throws -> WrapperStorage<Value> {
    if let decoder = self as? ArgumentDecoder, let names = decoder.names {
      names.record(codingPath.last?.stringValue ?? "")
      return .declared
    }
    return .value(try parsedValue(type, wrapper: wrapper))
  }

  /// The parsed value of the property being decoded.
  func parsedValue<Value>(_ type: Value.Type, wrapper: String) throws -> Value {
    guard let decoder = self as? ArgumentDecoder else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: "\(wrapper) decodes only from parse(_:)"))
    }
    guard let value = decoder.values[decoder.path] as? Value else {
      throw DecodingError.valueNotFound(
        Value.self, .init(codingPath: codingPath, debugDescription: "not parsed"))
    }
    return value
  }
}
