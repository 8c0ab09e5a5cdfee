/// A property wrapper's state: before parsing, declared (its declaration recorded by
/// ``DeclarationCollector``); after, its value.
enum WrapperStorage<Value: Sendable>: Sendable {
  case declared
  case value(Value)

  /// A wrapper declared with `build`, which is recorded for the type whose
  /// declarations are being read.
  static func declaring(_ build: @escaping DeclarationCollector.Build) -> Self {
    DeclarationCollector.record(build)
    return .declared
  }

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

extension Decoder {
  /// The storage of the wrapper being decoded: its parsed value, or in a
  /// naming decode, its name recorded and an empty declaration.
  func wrapperStorage<Value>(_ type: Value.Type, wrapper: String) throws -> WrapperStorage<Value> {
    guard let decoder = self as? ArgumentDecoder else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: "\(wrapper) decodes only from parse(_:)"))
    }
    if let names = decoder.names {
      names.record(codingPath.last?.stringValue ?? "")
      return .declared
    }
    guard let value = decoder.values[decoder.path] as? Value else {
      throw DecodingError.valueNotFound(
        Value.self, .init(codingPath: codingPath, debugDescription: "not parsed"))
    }
    return .value(value)
  }
}
