/// The typed values of one parsed command line, by property path
/// (`options.server`): what the decoder hands each property wrapper. A nil
/// optional is a value too.
typealias ParsedValues = [String: any Sendable]

/// Decodes a ``ParsableArguments`` type from ``ParsedValues``: the synthesized
/// `init(from:)` asks for each wrapper by its property's name, and the
/// wrapper takes its value at the decoder's path.
struct ArgumentDecoder: Decoder {
  let values: ParsedValues
  let codingPath: [any CodingKey]
  /// In naming mode, where each wrapper records its property's name instead
  /// of taking a value (``ParsableArguments/definitions(prefix:)``).
  var names: NameRecorder? = nil
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// The path ``ParsedValues`` keys this decoder's value by: `options.server`.
  var path: String { codingPath.map(\.stringValue).joined(separator: ".") }

  func appending(_ key: any CodingKey) -> ArgumentDecoder {
    ArgumentDecoder(values: values, codingPath: codingPath + [key], names: names)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(Container<Key>(decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw undeclared }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw undeclared }

  /// A stored property without a wrapper cannot come from the command line.
  var undeclared: DecodingError {
    .typeMismatch(
      Any.self,
      .init(
        codingPath: codingPath,
        debugDescription:
          "\(path) is not declared with @Option, @Flag, @Argument, @OptionGroup or "
          + "@EnvironmentVariable"))
  }

  struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ArgumentDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    // The protocol's `decode(Bool.self, …)` and the like come here: a plain stored
    // property then asks for a single value container, which throws `undeclared`.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try T(from: decoder.appending(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
      decoder.appending(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      throw decoder.undeclared
    }
    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { decoder.appending(key) }
  }
}

/// The property names a naming decode met, in declaration order (the
/// synthesized `init(from:)` asks for each property by name).
final class NameRecorder {
  /// A property's name and, for an ``OptionGroup``, its declarations (nil:
  /// those its wrapper recorded as `init()` made it).
  struct Property {
    var name: String
    var build: DeclarationCollector.Build?
  }

  private(set) var properties: [Property] = []

  func record(_ name: String, build: DeclarationCollector.Build? = nil) {
    properties.append(Property(name: name, build: build))
  }
}
