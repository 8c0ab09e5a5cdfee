/// Form parameters (`application/x-www-form-urlencoded`), decoded, in the order sent.
///
/// Decoding is strict: `%` must be followed by two hex digits, names and values must
/// be UTF-8 after decoding, a name without `=` is refused, and so are more than
/// ``maximumCount`` pairs. `+` is a space. Empty segments (`a=1&&b=2`, a trailing `&`)
/// are skipped, as browsers do.
///
/// ```swift
/// let form = try FormParameters(decoding: Array("cmd=client&os=ios".utf8))
/// form["cmd"]  // "client"
/// ```
struct FormParameters: Sendable, Equatable {
  struct Pair: Sendable, Equatable {
    var name: String
    var value: String
  }

  /// Most pairs a form may hold: no command takes more than ten parameters, and a
  /// large body of `a=1&b=1&…` must not hold the serving thread.
  static let maximumCount = 100

  /// Duplicates included.
  private(set) var pairs: [Pair] = []

  init() {}

  /// Decodes `bytes` (a query string or a form body).
  init(decoding bytes: some Collection<UInt8>) throws(RequestError) {
    let bytes = Array(bytes)
    // A command's form holds about ten pairs: one allocation rather than four.
    pairs.reserveCapacity(16)
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
      if end > start {
        guard pairs.count < Self.maximumCount else {
          throw .badRequest("more than \(Self.maximumCount) parameters")
        }
        try appendPair(bytes[start..<end])
      }
      start = end + 1
    }
  }

  /// The first value of `name`.
  subscript(name: String) -> String? {
    pairs.first { $0.name == name }?.value
  }

  /// The first name given more than once, if any.
  var firstDuplicateName: String? {
    // At most `maximumCount` short names: comparing them costs less than hashing.
    for (index, pair) in pairs.enumerated()
    where pairs[..<index].contains(where: { $0.name == pair.name }) {
      return pair.name
    }
    return nil
  }

  private mutating func appendPair(_ segment: ArraySlice<UInt8>) throws(RequestError) {
    guard let equals = segment.firstIndex(of: UInt8(ascii: "=")) else {
      let name = (try? Self.decodeComponent(segment, what: { "" })) ?? ""
      throw .badRequest("parameter '\(Printable(name))' has no '=' and no value")
    }
    let name = try Self.decodeComponent(segment[..<equals], what: { "a parameter name" })
    guard !name.isEmpty else {
      throw .badRequest("a parameter has an empty name")
    }
    let value = try Self.decodeComponent(
      segment[(equals + 1)...], what: { "parameter '\(Printable(name))'" })
    pairs.append(Pair(name: name, value: value))
  }

  /// Percent-decodes one name or value (`+` is a space); `what` names it in errors.
  private static func decodeComponent(_ bytes: ArraySlice<UInt8>, what: () -> String)
    throws(RequestError) -> String
  {
    guard bytes.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
      return try text(bytes.span, what: what)  // nothing escaped, as in most forms
    }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "+") {
        decoded.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
          let low = hexValue(bytes[index + 2])
        else {
          let escape = String(
            decoding: bytes[index..<min(index + 3, bytes.endIndex)], as: UTF8.self)
          throw .badRequest("\(what()) has a bad percent-escape '\(Printable(escape))'")
        }
        decoded.append(high << 4 | low)
        index += 2
      } else {
        decoded.append(byte)
      }
      index += 1
    }
    return try text(decoded.span, what: what)
  }

  /// `bytes` as a string, if they are UTF-8.
  private static func text(_ bytes: Span<UInt8>, what: () -> String) throws(RequestError) -> String
  {
    guard let text = try? UTF8Span(validating: bytes) else {
      throw .badRequest("\(what()) is not valid UTF-8")
    }
    return String(copying: text)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
