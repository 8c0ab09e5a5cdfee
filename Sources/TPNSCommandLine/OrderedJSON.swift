import TPNSProtocol

/// A JSON value with object keys in a fixed order, so that `--json` output
/// is stable byte for byte (docs/GUIDE.md documents it).
enum OrderedJSON {
  case string(String)
  case number(Int)
  case bool(Bool)
  case null
  case array([OrderedJSON])
  case object([(String, OrderedJSON)])

  /// Compact JSON text.
  var rendered: String {
    switch self {
    case .string(let text): return JSONString.quoted(text)
    case .number(let value): return String(value)
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    case .array(let items): return "[" + items.map(\.rendered).joined(separator: ",") + "]"
    case .object(let members):
      return "{"
        + members.map { JSONString.quoted($0.0) + ":" + $0.1.rendered }.joined(separator: ",")
        + "}"
    }
  }
}
