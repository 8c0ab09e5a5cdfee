/// A recursive descent over JSON bytes (RFC 8259), with errors that name the offending
/// byte: `JSONDecoder` would bring Foundation into every binary that links the protocol.
/// Strict: strings are UTF-8 with every escape checked (a lone surrogate is refused),
/// numbers have JSON's syntax, nothing but whitespace follows the value, no trailing
/// comma. As `JSONDecoder`: a leading byte order mark is skipped, the first of
/// duplicate keys wins, and arrays and objects nest at most ``maximumDepth`` deep.
struct JSONParser {
  /// How deep arrays and objects may nest, as in `JSONDecoder`. The reader recurses
  /// once per level; a few thousand levels would end the stack.
  static let maximumDepth = 512

  private let bytes: [UInt8]
  private var index = 0

  /// The value of the whole of `bytes`: after a byte order mark, before whitespace.
  static func document(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    let value = try parser.value(depth: 0)
    guard parser.peek() == nil else { throw parser.expected("the end") }
    return value
  }

  /// The next byte after any whitespace, not consumed; nil at the end.
  private mutating func peek() -> UInt8? {
    while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    return index < bytes.count ? bytes[index] : nil
  }

  /// The value that starts after any whitespace; `depth` arrays and objects enclose it.
  private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard let first = peek() else { throw expected("a value") }
    switch first {
    case UInt8(ascii: "{"):
      try open(depth: depth)
      var members: [String: JSONValue] = [:]
      switch peek() {
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      case UInt8(ascii: "\""): break
      default: throw expected("a string key or '}'")
      }
      repeat {
        guard peek() == UInt8(ascii: "\"") else { throw expected("a string key") }
        let key = try string()
        guard peek() == UInt8(ascii: ":") else { throw expected("':'") }
        index += 1
        let member = try value(depth: depth + 1)
        if members.index(forKey: key) == nil { members[key] = member }
      } while try next(close: "}")
      return .object(members)
    case UInt8(ascii: "["):
      try open(depth: depth)
      var elements: [JSONValue] = []
      if peek() == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      repeat {
        elements.append(try value(depth: depth + 1))
      } while try next(close: "]")
      return .array(elements)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    default: throw expected("a value")
    }
  }

  /// After an element or a member: whether another follows (`,`) or its
  /// array or object ended (`close`, `]` or `}`).
  private mutating func next(close: Unicode.Scalar) throws(JSONSyntaxError) -> Bool {
    switch peek() {
    case UInt8(ascii: ","):
      index += 1
      return true
    case UInt8(ascii: close):
      index += 1
      return false
    default:
      throw expected("',' or '\(close)'")
    }
  }

  /// Consumes the bracket of an array or object `depth` containers deep.
  private mutating func open(depth: Int) throws(JSONSyntaxError) {
    guard depth < Self.maximumDepth else {
      throw JSONSyntaxError(
        offset: index,
        "more than \(Self.maximumDepth) nested arrays and objects at offset \(index)")
    }
    index += 1
  }

  /// The string whose `"` is the current byte (after ``peek()``).
  private mutating func string() throws(JSONSyntaxError) -> String {
    let start = index
    index += 1
    // Copied only from the first escape on; escapes add whole, valid
    // sequences, so an invalid byte is one that came as it was.
    var escaped: [UInt8] = []
    var runStart = index
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        let content = escaped.isEmpty ? bytes[runStart..<index] : escaped + bytes[runStart..<index]
        index += 1
        guard let text = String(validating: content, as: UTF8.self) else {
          throw JSONSyntaxError(offset: start, "the string at offset \(start) is not UTF-8")
        }
        return text
      case UInt8(ascii: "\\"):
        escaped += bytes[runStart..<index]
        try escape(into: &escaped)
        runStart = index
      case 0..<0x20:
        let hex = String(bytes[index], radix: 16, uppercase: true)
        throw JSONSyntaxError(
          offset: index,
          "control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) "
            + "at offset \(index) is not escaped in a string")
      default:
        index += 1
      }
    }
    throw JSONSyntaxError(offset: start, "the string at offset \(start) has no closing '\"'")
  }

  private mutating func literal(
    _ word: String, _ value: JSONValue
  ) throws(JSONSyntaxError) -> JSONValue {
    guard bytes[index...].starts(with: word.utf8) else { throw expected("a value") }
    index += word.utf8.count
    return value
  }

  /// A number: `.integer` without a fraction or exponent when it fits 64 bits,
  /// `.number` otherwise, and `.null` for one JSON allows but a `Double` cannot
  /// hold (`1e400`), as `JSONValue`'s `Decodable` conformance kept it.
  private mutating func number() throws(JSONSyntaxError) -> JSONValue {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    try digits()
    if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
      throw JSONSyntaxError(offset: start, "the number at offset \(start) has a leading zero")
    }
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      try digits()
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      try digits()
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if isInteger, let integer = Int64(text) { return .integer(integer) }
    guard let number = Double(text), number.isFinite else { return .null }
    return .number(number)
  }

  /// One or more decimal digits.
  private mutating func digits() throws(JSONSyntaxError) {
    let start = index
    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
      index += 1
    }
    guard index > start else { throw expected("a digit") }
  }

  /// The escape at the current `\`, appended to `buffer` as UTF-8.
  private mutating func escape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
    let start = index
    guard index + 1 < bytes.count else {
      throw JSONSyntaxError(offset: start, "'\\' at offset \(start) ends the input")
    }
    let letter = bytes[index + 1]
    index += 2
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(letter)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      var value = try hexadecimal(escapeAt: start)
      switch value {
      case 0xD800...0xDBFF:
        // A high surrogate must be followed by an escaped low one.
        let lowStart = index
        guard bytes[index...].starts(with: "\\u".utf8) else { throw loneSurrogate(at: start) }
        index += 2
        let low = try hexadecimal(escapeAt: lowStart)
        guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(at: start) }
        value = 0x10000 + (value - 0xD800) << 10 + (low - 0xDC00)
      case 0xDC00...0xDFFF:
        throw loneSurrogate(at: start)
      default:
        break
      }
      // Not a surrogate, or a pair's scalar: always a scalar.
      if let scalar = Unicode.Scalar(value) {
        UTF8.encode(scalar) { buffer.append($0) }
      }
    default:
      throw JSONSyntaxError(
        offset: start,
        "'\\' followed by \(Self.shown(letter)) at offset \(start) is not a JSON escape")
    }
  }

  /// The four hexadecimal digits after the `\u` at `escapeAt`.
  private mutating func hexadecimal(escapeAt start: Int) throws(JSONSyntaxError) -> UInt32 {
    let digits = bytes[index..<min(index + 4, bytes.count)]
    guard digits.count == 4, digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
      let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
    else {
      throw JSONSyntaxError(
        offset: start, "'\\u' at offset \(start) is not followed by four hexadecimal digits")
    }
    index += 4
    return value
  }

  private func loneSurrogate(at start: Int) -> JSONSyntaxError {
    let escape = String(decoding: bytes[start..<start + 6], as: UTF8.self)
    return JSONSyntaxError(offset: start, "'\(escape)' at offset \(start) is a lone surrogate")
  }

  /// "expected `what` at offset N, found …" for the current byte: the end, a word
  /// (`nope`, `NaN`), or one byte.
  private func expected(_ what: String) -> JSONSyntaxError {
    var found = "the end"
    if index < bytes.count {
      let word = bytes[index...].prefix {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20)
      }
      found =
        word.count > 1
        ? "'\(String(decoding: word.prefix(20), as: UTF8.self))\(word.count > 20 ? "..." : "")'"
        : Self.shown(bytes[index])
    }
    return JSONSyntaxError(offset: index, "expected \(what) at offset \(index), found \(found)")
  }

  /// A byte as messages show it: printable ASCII quoted, anything else in hex.
  static func shown(_ byte: UInt8) -> String {
    byte >= 0x20 && byte < 0x7F
      ? "'\(Character(Unicode.Scalar(byte)))'"
      : "byte 0x\(String(byte, radix: 16, uppercase: true))"
  }
}

extension JSONSyntaxError {
  fileprivate init(offset: Int, _ description: String) {
    self.init(offset: offset, description: description)
  }
}

extension JSONValue {
  /// The JSON value `bytes` hold (RFC 8259, strictly: see ``JSONSyntaxError`` for
  /// what is refused); numbers are `.integer` when written without a fraction or
  /// exponent and within 64 bits, and the first of duplicate keys wins.
  ///
  ///     try JSONValue(parsing: Array(#"{"a":[1,2.5,"x"]}"#.utf8))
  ///     // .object(["a": .array([.integer(1), .number(2.5), .string("x")])])
  public init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
    self = try JSONParser.document(bytes)
  }

  /// The JSON value of `text`'s UTF-8.
  public init(parsing text: String) throws(JSONSyntaxError) {
    try self.init(parsing: Array(text.utf8))
  }
}
