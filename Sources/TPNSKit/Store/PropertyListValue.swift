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
