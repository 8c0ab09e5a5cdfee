/// What makes an identifier (a device UID, a token) syntactically invalid.
///
/// Positions are 1-based and count Unicode scalars, as a user would count characters.
public enum SyntaxViolation: Sendable, Hashable, CustomStringConvertible {
  /// The identifier has `actual` characters where `expected` are allowed.
  case length(actual: Int, expected: ClosedRange<Int>)
  /// The character at `position` is not allowed.
  case character(Unicode.Scalar, position: Int)

  /// Whether it is a wrong length (its message says the lengths allowed already).
  public var isLength: Bool {
    if case .length = self { true } else { false }
  }

  public var description: String {
    switch self {
    case .length(let actual, let expected):
      return "has \(actual) characters, expected \(expected.spoken)"
    case .character(let scalar, let position):
      return "has \(IdentifierError.show(scalar)) at position \(position), which is not allowed"
    }
  }

  /// The first violation of `text` against a length range and an allowed-scalar test:
  /// a disallowed character (the first one) before a bad length.
  public static func first(
    in text: String, length: ClosedRange<Int>, allows: (Unicode.Scalar) -> Bool
  ) -> SyntaxViolation? {
    var count = 0
    for scalar in text.unicodeScalars {
      count += 1
      if !allows(scalar) { return .character(scalar, position: count) }
    }
    return length.contains(count) ? nil : .length(actual: count, expected: length)
  }
}

extension Unicode.Scalar {
  /// The scalar as Unicode writes a code point: `U+001B`.
  public var codePoint: String {
    let hex = String(value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// Whether it is `A-Z`, `a-z`, `0-9` or one of `others`.
  func isASCIIAlphanumeric(or others: String = "") -> Bool {
    switch value {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    default: others.unicodeScalars.contains(self)
    }
  }

  /// Whether it is C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F).
  public var isControl: Bool {
    value < 0x20 || (0x7F...0x9F).contains(value)
  }
}

extension ClosedRange<Int> {
  /// A range of lengths as messages say it: `20`, `1 to 4096`.
  var spoken: String { count == 1 ? "\(lowerBound)" : "\(lowerBound) to \(upperBound)" }
}
