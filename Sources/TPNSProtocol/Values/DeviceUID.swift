/// A TUTK device UID: exactly 20 characters of `[A-Z0-9]`.
///
/// The only way to make one validates: surrounding white space is trimmed and
/// lower-case letters are upper-cased; anything else wrong is an
/// ``IdentifierError`` saying what and where.
///
///     try DeviceUID(" abcdefghjklmnprstuvw\n").rawValue  // "ABCDEFGHJKLMNPRSTUVW"
///     try DeviceUID("ABC&")  // character '&' at position 4 is not allowed in a UID …
public struct DeviceUID: Hashable, Sendable, CustomStringConvertible {
  /// The normalised UID.
  public let rawValue: String

  /// Validates and normalises `text`.
  public init(_ text: String) throws(IdentifierError) {
    // Every UID read from the store is canonical already: kept as it is.
    if Self.isCanonical(text) {
      rawValue = text
      return
    }
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty else { throw .empty(.uid) }
    let upper = String(String.UnicodeScalarView(trimmed.unicodeScalars.map(\.asciiUppercased)))
    if let violation = DeviceUIDSyntax.violation(in: upper) {
      throw IdentifierError(.uid, violation)
    }
    rawValue = upper
  }

  public var description: String {
    rawValue
  }

  /// Whether `text` is exactly 20 of `0-9` and `A-Z`: a UID in the form this
  /// type stores.
  public static func isCanonical(_ text: String) -> Bool {
    // Over the string's bytes as one buffer: every UID of a store is checked
    // each time it is read, and `String.UTF8View`'s iterator costs a call a byte.
    let isCanonical = { (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
      guard bytes.count == DeviceUIDSyntax.length else { return false }
      for byte in bytes {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"): continue
        default: return false
        }
      }
      return true
    }
    // Read in place when the string's bytes are in one buffer (`withUTF8` needs a
    // mutable copy of the value: a retain and a release); else through such a copy.
    if let result = text.utf8.withContiguousStorageIfAvailable(isCanonical) { return result }
    var copy = text
    return copy.withUTF8(isCanonical)
  }
}

extension Unicode.Scalar {
  /// `a`–`z` upper-cased; every other scalar unchanged (so non-ASCII is still rejected).
  var asciiUppercased: Unicode.Scalar {
    ("a"..."z").contains(self) ? Unicode.Scalar(value - 32)! : self
  }

  /// `A`–`Z` lower-cased; every other scalar unchanged.
  var asciiLowercased: Unicode.Scalar {
    ("A"..."Z").contains(self) ? Unicode.Scalar(value + 32)! : self
  }
}
