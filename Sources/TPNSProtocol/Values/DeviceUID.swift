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
    // Most UIDs met are already canonical (every one read from the store, at
    // each reconcile): checked byte by byte, they skip the trimming and the
    // scalar-by-scalar upper-casing, a third of a 10,000-UID `tpns add`.
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
    // In place (the mutating `withUTF8` checks the buffer is unique first).
    text.utf8.withContiguousStorageIfAvailable(isCanonical) ?? isCanonical(Array(text.utf8))
  }

  private static func isCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count == DeviceUIDSyntax.length, let base = bytes.baseAddress else { return false }
    // Three words (the last two overlapping), each byte tested against both
    // ranges at once: the byte loop was 290 instructions a UID, run for each
    // of a 10,000-UID mapsync's.
    let raw = UnsafeRawPointer(base)
    return isDigitsOrCapitals(raw.loadUnaligned(as: UInt64.self))
      && isDigitsOrCapitals(raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
      && isDigitsOrCapitals(raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
  }

  /// Whether each of the 8 bytes of `word` is `0-9` or `A-Z`. A byte below
  /// 0x80 plus (0x80 - low) has its high bit set when it is at least `low`,
  /// plus (0x7F - high) when it is above `high`; no sum carries into the next byte.
  private static func isDigitsOrCapitals(_ word: UInt64) -> Bool {
    let highs = WordBytes.highs
    guard word & highs == 0 else { return false }
    let digits = (word &+ 0x5050_5050_5050_5050) & ~(word &+ 0x4646_4646_4646_4646)
    let capitals = (word &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(word &+ 0x2525_2525_2525_2525)
    return (digits | capitals) & highs == highs
  }

  private static func isCanonical(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer(isCanonical)
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
