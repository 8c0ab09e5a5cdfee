/// Reads a property list in either form Apple writes it: XML
/// (``PropertyListXML``), or binary (`bplist00`, how a device keeps
/// `UserDefaults`; ``PropertyListLibplist``). What tpns writes is always XML.
///
///     let value = try PropertyList.read(Array(data))  // .dictionary(["UIDs": .array([…])])
public enum PropertyList {
  /// How deep values may nest (the top value is at 1, `<plist>` not
  /// counted): a store nests 6 deep. Both readers recurse once per level,
  /// and a stack ends a few thousand levels down; past this, the file is
  /// refused instead.
  public static let maximumDepth = 64

  /// The most bytes of a property list tpns reads (a store, a file to import, a list
  /// of UIDs): a 10,000-UID store is under 1 MiB, and a mistaken `/dev/zero` stops here.
  public static let maximumSize = 64 << 20

  /// A key as messages show it: a server's URL without its credentials and query
  /// values, at most 40 characters, control characters escaped.
  static func shown(key: String) -> String {
    ServerURL(key).redacted.quotedStart.escapingControlCharacters
  }

  /// The value at the top of the property list in `bytes`: binary if they
  /// start with `bplist`, else XML. Strings must be UTF-8 (XML) or become
  /// valid Unicode (binary); a dictionary may not hold a key twice; values
  /// nest at most ``maximumDepth`` deep.
  public static func read(_ bytes: [UInt8]) throws(PropertyListParseError) -> PropertyListValue {
    isBinary(bytes) ? try PropertyListLibplist.read(bytes) : try PropertyListXML.parse(bytes)
  }

  /// Whether `bytes` are a binary property list (`bplist`), which libplist reads.
  static func isBinary(_ bytes: [UInt8]) -> Bool { bytes.starts(with: "bplist".utf8) }
}

/// Why bytes are not a property list: the message, and for XML the 1-based
/// line where the reader stopped (a binary file has no lines).
public struct PropertyListParseError: Error, Equatable, CustomStringConvertible {
  /// The line of an XML file, nil for a binary one.
  public let line: Int?
  /// What is wrong.
  public let message: String
  /// Whether values nest deeper than ``PropertyList/maximumDepth``.
  public var isTooDeep = false

  public init(line: Int?, message: String, isTooDeep: Bool = false) {
    self.line = line
    self.message = message
    self.isTooDeep = isTooDeep
  }

  public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// Any value a property list can hold: how the store keeps keys it does not
/// know, so that rewriting the file never drops them.
public enum PropertyListValue: Sendable, Equatable {
  case string(String)
  case bool(Bool)
  case integer(Int)
  case real(Double)
  /// Seconds since 1970-01-01 00:00:00 UTC.
  case date(secondsSince1970: Double)
  case data([UInt8])
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

/// `noun` after its article, for messages: `an array`, `a string`.
func withArticle(_ noun: String) -> String {
  (noun.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + noun
}
