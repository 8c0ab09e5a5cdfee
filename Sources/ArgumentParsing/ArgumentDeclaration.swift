/// A property wrapper's state: before parsing, its declaration (what
/// `Mirror` reads to build ``ArgumentDefinition``s); after, its value.
enum WrapperStorage<Value: Sendable>: Sendable {
  /// The definitions for a property at a key path (its name is the last element).
  case definition(@Sendable (_ key: [String]) -> [ArgumentDefinition])
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

/// What every property wrapper is to `Mirror`: a source of definitions.
protocol ArgumentDeclaration {
  func definitions(key: [String]) -> [ArgumentDefinition]
}

extension ArgumentDeclaration {
  /// The definitions a wrapper's storage declares (none once it holds a value).
  static func definitions<Value>(_ storage: WrapperStorage<Value>, key: [String])
    -> [ArgumentDefinition]
  {
    guard case .definition(let build) = storage else { return [] }
    return build(key)
  }
}

extension Decoder {
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
