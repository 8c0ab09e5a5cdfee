import TPNSProtocol

/// A UID in its canonical form (20 of `0-9` and `A-Z`, as ``DeviceUID``
/// stores one) packed into 128 bits, 6 per character: a key that hashes and
/// compares as two integers, for the store's check that no UID is repeated.
struct PackedUID: Hashable {
  private let high: UInt64
  private let low: UInt64

  /// `text` packed, or nil if it is not exactly a canonical UID.
  init?(canonical text: String) {
    let packed =
      text.utf8.withContiguousStorageIfAvailable(Self.pack) ?? Self.pack(Array(text.utf8))
    guard let packed else { return nil }
    (high, low) = packed
  }

  /// The UID whose UTF-8 is `bytes` packed, or nil if it is not exactly a
  /// canonical UID.
  init?(canonical bytes: UnsafeBufferPointer<UInt8>) {
    guard let packed = Self.pack(bytes) else { return nil }
    (high, low) = packed
  }

  private static func pack(_ bytes: [UInt8]) -> (UInt64, UInt64)? {
    bytes.withUnsafeBufferPointer(pack)
  }

  private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
    guard bytes.count == DeviceUIDSyntax.length else { return nil }
    var high: UInt64 = 0
    var low: UInt64 = 0
    for position in 0..<bytes.count {
      let byte = bytes[position]
      let value: UInt64
      switch byte {
      case 0x30...0x39: value = UInt64(byte - 0x30)
      case 0x41...0x5A: value = UInt64(byte - 0x41 + 10)
      default: return nil
      }
      // 10 characters in each half: 60 bits.
      if position < 10 { high = high << 6 | value } else { low = low << 6 | value }
    }
    return (high, low)
  }
}
