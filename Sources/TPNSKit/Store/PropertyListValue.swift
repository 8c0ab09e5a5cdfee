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

  /// The first string in the value, a dictionary's keys included, that an
  /// XML property list cannot hold (a C0 control character): a binary file
  /// can hold one, and the store is written as XML.
  var unwritableText: String? {
    switch self {
    case .string(let text): PropertyListXML.isWritable(text) ? nil : text
    case .array(let items): items.lazy.compactMap(\.unwritableText).first
    case .dictionary(let members):
      members.lazy.compactMap { key, value in
        PropertyListXML.isWritable(key) ? value.unwritableText : key
      }.first
    case .bool, .integer, .real, .date, .data: nil
    }
  }
}
