/// What makes an identifier (a device UID, a token) syntactically invalid.
///
/// Positions are 1-based and count Unicode scalars, as a user would count characters.
public enum SyntaxViolation: Sendable, Hashable, CustomStringConvertible {
  /// The identifier has `actual` characters where `expected` are allowed.
  case length(actual: Int, expected: ClosedRange<Int>)
  /// The character at `position` is not allowed.
  case character(Unicode.Scalar, position: Int)

  public var description: String {
    switch self {
    case .length(let actual, let expected):
      let wanted =
        expected.lowerBound == expected.upperBound
        ? "\(expected.lowerBound)" : "\(expected.lowerBound) to \(expected.upperBound)"
      return "has \(actual) characters, expected \(wanted)"
    case .character(let scalar, let position):
      let shown =
        scalar.isASCII && scalar.value >= 0x20 && scalar.value < 0x7F
        ? "'\(Character(scalar))'" : "U+\(String(scalar.value, radix: 16, uppercase: true))"
      return "has \(shown) at position \(position), which is not allowed"
    }
  }

  /// The first violation of `text` against a length range and an allowed-scalar test:
  /// a disallowed character (the first one) before a bad length.
  @inlinable
  public static func first(
    in text: String, length: ClosedRange<Int>, allows: (Unicode.Scalar) -> Bool
  ) -> SyntaxViolation? {
    // ASCII, the common case, is checked byte by byte (a byte is a scalar there).
    var count = 0
    for byte in text.utf8 {
      guard byte < 0x80 else { return firstInScalars(of: text, length: length, allows: allows) }
      count += 1
      let scalar = Unicode.Scalar(byte)
      if !allows(scalar) { return .character(scalar, position: count) }
    }
    return length.contains(count) ? nil : .length(actual: count, expected: length)
  }

  /// The first violation of `text` against a length range and the allowed
  /// characters: `ascii`, the ASCII ones `allows` accepts (the same test, made a set:
  /// see ``ASCIISet``), and `allows` itself for the rest. Returns what
  /// ``first(in:length:allows:)`` returns with `allows`.
  @inlinable
  public static func first(
    in text: String, length: ClosedRange<Int>, ascii: ASCIISet, allows: (Unicode.Scalar) -> Bool
  ) -> SyntaxViolation? {
    // The offset of the first byte not in `ascii`, or the count when there is none.
    let stop = text.utf8.withContiguousStorageIfAvailable { bytes -> Int in
      var offset = 0
      while offset < bytes.count, ascii.contains(bytes[offset]) { offset += 1 }
      return offset
    }
    guard let stop else { return first(in: text, length: length, allows: allows) }
    let count = text.utf8.count
    if stop == count {
      return length.contains(count) ? nil : .length(actual: count, expected: length)
    }
    let byte = text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: stop)]
    // Past a non-ASCII byte, positions count scalars: the scalar test from the start.
    guard byte < 0x80 else { return firstInScalars(of: text, length: length, allows: allows) }
    return .character(Unicode.Scalar(byte), position: stop + 1)
  }

  @usableFromInline
  static func firstInScalars(
    of text: String, length: ClosedRange<Int>, allows: (Unicode.Scalar) -> Bool
  ) -> SyntaxViolation? {
    var count = 0
    for scalar in text.unicodeScalars {
      count += 1
      if !allows(scalar) { return .character(scalar, position: count) }
    }
    return length.contains(count) ? nil : .length(actual: count, expected: length)
  }
}

/// A set of ASCII characters, tested with a shift and a mask: what an identifier's
/// syntax allows, made once from its test of scalars, so that each byte the emulator
/// checks is a shift and a mask rather than a call of that test.
///
///     let hex = ASCIISet { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
///     hex.contains(UInt8(ascii: "c"))  // true
public struct ASCIISet: Sendable {
  @usableFromInline let low: UInt64
  @usableFromInline let high: UInt64

  /// The ASCII characters `allows` accepts.
  public init(_ allows: (Unicode.Scalar) -> Bool) {
    var low: UInt64 = 0
    var high: UInt64 = 0
    for byte in UInt8(0)..<0x80 where allows(Unicode.Scalar(byte)) {
      if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
    }
    self.low = low
    self.high = high
  }

  /// Whether `byte` is one of the set's characters (never a byte past ASCII).
  @inlinable
  public func contains(_ byte: UInt8) -> Bool {
    if byte < 64 { return low & (1 &<< UInt64(byte)) != 0 }
    return byte < 0x80 && high & (1 &<< UInt64(byte &- 64)) != 0
  }
}
