import FoundationEssentials

/// Any value a property list can hold: how the store keeps keys it does not
/// know, so that rewriting the file never drops them.
public enum PropertyListValue: Sendable, Equatable {
  case string(String)
  case bool(Bool)
  case integer(Int)
  case real(Double)
  case date(Date)
  case data(Data)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])
}

extension PropertyListValue: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Strings first: they are nearly every value, and only a <string>
    // decodes as one. Then the most specific: an <integer> also decodes as a Double.
    if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .real(value)
    } else if let value = try? container.decode(Date.self) {
      self = .date(value)
    } else if let value = try? container.decode(Data.self) {
      self = .data(value)
    } else if let value = try? container.decode([PropertyListValue].self) {
      self = .array(value)
    } else {
      self = .dictionary(try container.decode([String: PropertyListValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .string(let value): try container.encode(value)
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .real(let value): try container.encode(value)
    case .date(let value): try container.encode(value)
    case .data(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .dictionary(let value): try container.encode(value)
    }
  }
}

extension PropertyListValue {
  /// The name of the value's type as the plist format spells it, for messages.
  var typeName: String {
    switch self {
    case .string: "string"
    case .bool: "boolean"
    case .integer: "integer"
    case .real: "real"
    case .date: "date"
    case .data: "data"
    case .array: "array"
    case .dictionary: "dictionary"
    }
  }
}
