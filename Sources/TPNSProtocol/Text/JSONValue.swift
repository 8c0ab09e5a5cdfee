/// Any JSON value, kept as it was sent: what a `map` entry carries under a key
/// the protocol does not define, so that a server can store it and show it back.
///
///     try JSONDecoder().decode(JSONValue.self, from: Data("[1,\"a\"]".utf8)).compactText
///     // [1,"a"]
public enum JSONValue: Sendable, Hashable, Codable {
  case null
  case bool(Bool)
  /// A number without a fraction or exponent that fits 64 bits.
  case integer(Int64)
  /// Any other number.
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// Compact JSON text, object keys sorted.
  public var compactText: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .integer(let value): return String(value)
    case .number(let value): return value.isFinite ? "\(value)" : "null"
    case .string(let value): return JSONString.quoted(value)
    case .array(let values): return "[" + values.map(\.compactText).joined(separator: ",") + "]"
    case .object(let members):
      return "{"
        + members.sorted { $0.key < $1.key }
        .map { JSONString.quoted($0.key) + ":" + $0.value.compactText }
        .joined(separator: ",") + "}"
    }
  }
}
