/// Whether bytes are well-formed UTF-8 (RFC 3629: no overlong form, no
/// surrogate, nothing past U+10FFFF), checked in place. `String(validating:)`
/// answers the same but copies the bytes into a new string first: for an
/// 800 KB store that was a tenth of reading it.
enum UTF8Validation {
  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    firstInvalidOffset(in: bytes) == nil
  }

  /// The offset of the first byte that does not begin a well-formed
  /// sequence (a lead byte whose sequence is cut or malformed), or nil when
  /// all of `bytes` is UTF-8.
  static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let count = bytes.count
    var index = 0
    // 32 ASCII bytes at a time while they are: the whole of a store but for
    // its strings, unless they are not ASCII.
    while index + 32 <= count {
      let at = UnsafeRawPointer(base + index)
      let any =
        at.loadUnaligned(as: UInt64.self) | at.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        | at.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        | at.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
      guard any & 0x8080_8080_8080_8080 == 0 else { break }
      index += 32
    }
    while index < count {
      // Eight ASCII bytes at a time: the whole of a store but for its strings.
      if index + 8 <= count,
        UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
        continue
      }
      let lead = base[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      // The length the lead byte announces, and the range of its first continuation byte.
      let length: Int
      var second: ClosedRange<UInt8> = 0x80...0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        second = 0xA0...0xBF
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        second = 0x80...0x9F
      case 0xF0:
        length = 4
        second = 0x90...0xBF
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        second = 0x80...0x8F
      default: return index
      }
      guard index + length <= count, second.contains(base[index + 1]) else { return index }
      for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return index }
      index += length
    }
    return nil
  }
}
