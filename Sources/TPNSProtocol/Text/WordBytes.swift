/// Tests on the 8 bytes of a 64-bit word at once (SWAR), shared by the
/// scanners that read UIDs, JSON strings, forms and the store 8 bytes at a
/// time instead of a byte at a time.
public enum WordBytes {
  /// 0x01 in every byte.
  public static let ones: UInt64 = 0x0101_0101_0101_0101
  /// 0x80 in every byte.
  public static let highs: UInt64 = 0x8080_8080_8080_8080

  /// `byte` in every byte of a word.
  @inlinable
  public static func repeating(_ byte: UInt8) -> UInt64 {
    0x0101_0101_0101_0101 &* UInt64(byte)
  }

  /// The high bit of each byte of `word` that is zero, and possibly of
  /// bytes above one that is (the borrow): the lowest flagged byte is the
  /// first zero byte in memory order, and the result is 0 only when no byte is.
  @inlinable
  public static func zeros(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
  }

  /// The high bit of each byte of `word` equal to `byte` (as ``zeros(_:)``).
  @inlinable
  public static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    zeros(word ^ repeating(byte))
  }
}
