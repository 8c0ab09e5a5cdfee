import TPNSProtocol

/// A UID in its canonical form (20 of `0-9` and `A-Z`, as ``DeviceUID``
/// stores one) packed into 128 bits, 6 per character: a key that hashes and
/// compares as two integers, for the store's check that no UID is repeated.
struct PackedUID: Hashable {
  private let high: UInt64
  private let low: UInt64

  /// `text` packed, or nil if it is not exactly a canonical UID.
  init?(canonical text: String) {
    var text = text
    let packed = text.withUTF8 { (bytes) -> (UInt64, UInt64)? in
      guard bytes.count == DeviceUIDSyntax.length else { return nil }
      var high: UInt64 = 0
      var low: UInt64 = 0
      for (position, byte) in bytes.enumerated() {
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
    guard let packed else { return nil }
    (high, low) = packed
  }
}
