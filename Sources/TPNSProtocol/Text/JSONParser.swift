/// A single pass over JSON bytes (RFC 8259), building ``JSONValue``s, with errors
/// that name the offending byte.
///
/// `JSONDecoder` would bring Foundation into every binary that links the protocol;
/// this reader does what the `map` needs, strictly: strings are UTF-8 with every escape
/// checked (a lone surrogate is refused), numbers have JSON's syntax (no leading zero,
/// no `+`, no bare `.`), there is nothing after the value but whitespace, and no
/// trailing comma. As `JSONDecoder`: a leading UTF-8 byte order mark is skipped, the
/// first of duplicate keys wins, and arrays and objects nest at most
/// ``maximumDepth`` deep.
///
/// ``MapPayload`` walks an array element by element with the same calls
/// ``JSONValue/init(parsing:)`` uses (`beginArray`, `next(close:)`, …).
struct JSONParser {
  /// How deep arrays and objects may nest, as in `JSONDecoder`. The reader recurses
  /// once per level; a few thousand levels would end the stack.
  static let maximumDepth = 512

  private let bytes: [UInt8]
  private var index = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  // MARK: The document

  /// Skips a UTF-8 byte order mark at the start, as `JSONDecoder` does.
  mutating func skipByteOrderMark() {
    if index == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
  }

  /// Whitespace, then the end of the input.
  mutating func end() throws(JSONSyntaxError) {
    skipWhitespace()
    guard index == bytes.count else { throw expected("the end") }
  }

  /// The next byte after any whitespace, not consumed; nil at the end.
  mutating func peek() -> UInt8? {
    skipWhitespace()
    return index < bytes.count ? bytes[index] : nil
  }

  // MARK: Values

  /// The value that starts after any whitespace; `depth` arrays and objects enclose it.
  mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
    guard let first = peek() else { throw expected("a value") }
    switch first {
    case UInt8(ascii: "{"):
      var members: [String: JSONValue] = [:]
      if try beginObject(depth: depth) {
        repeat {
          let key = try key()
          let member = try value(depth: depth + 1)
          if members.index(forKey: key) == nil { members[key] = member }
        } while try next(close: "}")
      }
      return .object(members)
    case UInt8(ascii: "["):
      var elements: [JSONValue] = []
      if try beginArray(depth: depth) {
        repeat {
          elements.append(try value(depth: depth + 1))
        } while try next(close: "]")
      }
      return .array(elements)
    case UInt8(ascii: "\""):
      return .string(try string())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try number()
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default:
      throw expected("a value")
    }
  }

  /// Consumes the `[` at the current byte (after ``peek()``); whether an element
  /// follows (false: the array was empty and its `]` is consumed too).
  mutating func beginArray(depth: Int) throws(JSONSyntaxError) -> Bool {
    try open(depth: depth)
    guard peek() == UInt8(ascii: "]") else { return true }
    index += 1
    return false
  }

  /// After an element or a member: whether another follows (`,`) or its
  /// array or object ended (`close`, `]` or `}`).
  mutating func next(close: Unicode.Scalar) throws(JSONSyntaxError) -> Bool {
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

  /// Consumes the `{` at the current byte (after ``peek()``); whether a member
  /// follows (false: the object was empty and its `}` is consumed too).
  mutating func beginObject(depth: Int) throws(JSONSyntaxError) -> Bool {
    try open(depth: depth)
    switch peek() {
    case UInt8(ascii: "}"):
      index += 1
      return false
    case UInt8(ascii: "\""):
      return true
    default:
      throw expected("a string key or '}'")
    }
  }

  /// A member's key and the `:` after it; its value comes next.
  mutating func key() throws(JSONSyntaxError) -> String {
    guard peek() == UInt8(ascii: "\"") else { throw expected("a string key") }
    let key = try string()
    guard peek() == UInt8(ascii: ":") else { throw expected("':'") }
    index += 1
    return key
  }

  /// The string whose `"` is the current byte (after ``peek()``).
  mutating func string() throws(JSONSyntaxError) -> String {
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
        throw controlCharacter()
      default:
        index += 1
      }
    }
    throw JSONSyntaxError(offset: start, "the string at offset \(start) has no closing '\"'")
  }

  // MARK: Private

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
        index += 1
      default:
        return
      }
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

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let count = word.utf8CodeUnitCount
    let matches = word.withUTF8Buffer { utf8 in
      bytes.count - index >= count && bytes[index..<index + count].elementsEqual(utf8)
    }
    guard matches else { throw expected("a value") }
    index += count
  }

  /// A number: `.integer` without a fraction or exponent when it fits 64 bits,
  /// `.number` otherwise, and `.null` for one JSON allows but a `Double` cannot
  /// hold (`1e400`), as `JSONValue`'s `Decodable` conformance kept it.
  private mutating func number() throws(JSONSyntaxError) -> JSONValue {
    let start = index
    let negative = bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    guard index < bytes.count, Self.isDigit(bytes[index]) else { throw expected("a digit") }
    // The integer part, negated (Int64.min has no positive counterpart).
    var negated: Int64 = 0
    var fits = true
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, Self.isDigit(bytes[index]) {
        throw JSONSyntaxError(offset: start, "the number at offset \(start) has a leading zero")
      }
    } else {
      while index < bytes.count, Self.isDigit(bytes[index]) {
        if fits {
          let (tens, overflow) = negated.multipliedReportingOverflow(by: 10)
          let (next, overflowAgain) = tens.subtractingReportingOverflow(
            Int64(bytes[index] - UInt8(ascii: "0")))
          fits = !overflow && !overflowAgain
          negated = next
        }
        index += 1
      }
    }
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      try digits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      try digits()
    }
    if isInteger, fits {
      if negative { return .integer(negated) }
      if negated != .min { return .integer(-negated) }
    }
    guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)),
      number.isFinite
    else { return .null }
    return .number(number)
  }

  /// One or more decimal digits.
  private mutating func digits() throws(JSONSyntaxError) {
    guard index < bytes.count, Self.isDigit(bytes[index]) else { throw expected("a digit") }
    while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
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
        guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw loneSurrogate(at: start) }
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
    var value: UInt32 = 0
    for _ in 0..<4 {
      let digit: UInt8
      switch index < bytes.count ? bytes[index] : 0 {
      case let byte where Self.isDigit(byte): digit = byte - UInt8(ascii: "0")
      case let byte where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte):
        digit = byte - UInt8(ascii: "a") + 10
      case let byte where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte):
        digit = byte - UInt8(ascii: "A") + 10
      default:
        throw JSONSyntaxError(
          offset: start, "'\\u' at offset \(start) is not followed by four hexadecimal digits")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  private func loneSurrogate(at start: Int) -> JSONSyntaxError {
    let escape = String(decoding: bytes[start..<start + 6], as: UTF8.self)
    return JSONSyntaxError(offset: start, "'\(escape)' at offset \(start) is a lone surrogate")
  }

  private func controlCharacter() -> JSONSyntaxError {
    let hex = String(bytes[index], radix: 16, uppercase: true)
    return JSONSyntaxError(
      offset: index,
      "control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) "
        + "at offset \(index) is not escaped in a string")
  }

  /// "expected `what` at offset N, found …" for the current byte.
  private func expected(_ what: String) -> JSONSyntaxError {
    JSONSyntaxError(offset: index, "expected \(what) at offset \(index), found \(found)")
  }

  /// What is at the current byte: the end, a word (`nope`, `NaN`), or one byte.
  private var found: String {
    guard index < bytes.count else { return "the end" }
    let word = bytes[index...].prefix { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
    guard word.count > 1 else { return Self.shown(bytes[index]) }
    return "'\(String(decoding: word.prefix(20), as: UTF8.self))\(word.count > 20 ? "..." : "")'"
  }

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
    var parser = JSONParser(bytes)
    parser.skipByteOrderMark()
    self = try parser.value(depth: 0)
    try parser.end()
  }

  /// The JSON value of `text`'s UTF-8.
  public init(parsing text: String) throws(JSONSyntaxError) {
    try self.init(parsing: Array(text.utf8))
  }
}
