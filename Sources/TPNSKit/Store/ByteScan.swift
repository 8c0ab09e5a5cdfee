import TPNSProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// Byte searches 8 bytes at a time (SWAR: one 64-bit word holds 8 bytes),
/// for the XML reader and writer, which scan every UID of a 10,000-UID store
/// on each read and write: a byte-by-byte loop with three or four
/// comparisons a byte was a tenth of either.
enum ByteScan {
  private static var ones: UInt64 { WordBytes.ones }
  private static var highs: UInt64 { WordBytes.highs }
  private static func zeros(_ word: UInt64) -> UInt64 { WordBytes.zeros(word) }

  /// Whether the 20 bytes at `bytes` hold no `<` and no `&`: three words
  /// (the last two overlapping), no loop.
  @inline(__always)
  static func isFreeOfMarkup(_ bytes: UnsafeRawPointer) -> Bool {
    isFreeOfMarkup(
      bytes.loadUnaligned(as: UInt64.self),
      bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
      bytes.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
  }

  /// Whether the 20 bytes at `left` and at `right` are the same: three
  /// words each (the last two overlapping), not a `memcmp` call.
  @inline(__always)
  static func equal20(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer) -> Bool {
    left.loadUnaligned(as: UInt64.self) == right.loadUnaligned(as: UInt64.self)
      && left.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        == right.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
      && left.loadUnaligned(fromByteOffset: 12, as: UInt64.self)
        == right.loadUnaligned(fromByteOffset: 12, as: UInt64.self)
  }

  /// ``isFreeOfMarkup(_:)`` of 20 bytes already loaded: bytes 0-7, 8-15
  /// and 12-19.
  @inline(__always)
  static func isFreeOfMarkup(_ first: UInt64, _ second: UInt64, _ last: UInt64) -> Bool {
    let lessThans = ones &* UInt64(UInt8(ascii: "<"))
    let ampersands = ones &* UInt64(UInt8(ascii: "&"))
    let found =
      zeros(first ^ lessThans) | zeros(first ^ ampersands) | zeros(second ^ lessThans)
      | zeros(second ^ ampersands) | zeros(last ^ lessThans) | zeros(last ^ ampersands)
    return found == 0
  }

  /// Whether `left` and `right` hold the same bytes, by `memcmp` (`==` of
  /// two `[UInt8]` compares element by element).
  static func equal(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    guard left.count == right.count else { return false }
    return left.withUnsafeBytes { left in
      right.withUnsafeBytes { right in
        left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
      }
    }
  }

  /// Copies `count` bytes from `source` to `destination` (not overlapping):
  /// up to 32 by a few word loads and stores (the first and last 8 or 16
  /// bytes, overlapping in the middle) rather than a call to `memcpy`, whose
  /// call cost more than the copy for the tags and UIDs of a list.
  @inline(__always)
  static func copy(
    _ source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int
  ) {
    func word(_ offset: Int) -> UInt64 {
      source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    func put(_ value: UInt64, _ offset: Int) {
      destination.storeBytes(of: value, toByteOffset: offset, as: UInt64.self)
    }
    switch count {
    case 8...16:
      let (first, last) = (word(0), word(count - 8))
      put(first, 0)
      put(last, count - 8)
    case 17...32:
      let (a, b) = (word(0), word(8))
      let (c, d) = (word(count - 16), word(count - 8))
      put(a, 0)
      put(b, 8)
      put(c, count - 16)
      put(d, count - 8)
    default:
      destination.copyMemory(from: source, byteCount: count)
    }
  }

  /// The offset of the first byte at or after `start` that is `first` or
  /// `second`, or `bytes.count` if none is.
  static func firstIndex(
    of first: UInt8, or second: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> Int {
    var index = start
    let raw = UnsafeRawBufferPointer(bytes)
    let firsts = ones &* UInt64(first)
    let seconds = ones &* UInt64(second)
    while index + 8 <= bytes.count {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      // The lowest flagged byte is exact (only bytes above a match can be
      // flagged falsely, by the borrow): its position is the answer.
      let found = (zeros(word ^ firsts) | zeros(word ^ seconds))
      if found != 0 { return index + found.trailingZeroBitCount >> 3 }
      index += 8
    }
    while index < bytes.count, bytes[index] != first, bytes[index] != second { index += 1 }
    return index
  }

  /// ``isPlainText(_:)`` of 20 bytes already loaded: bytes 0-7, 8-15 and
  /// 12-19.
  @inline(__always)
  static func isPlainText(_ first: UInt64, _ second: UInt64, _ last: UInt64) -> Bool {
    isPlainWord(first) && isPlainWord(second) && isPlainWord(last)
  }

  /// Whether the 8 bytes of `word` are plain text (see ``isPlainText(_:)``).
  @inline(__always)
  static func isPlainWord(_ word: UInt64) -> Bool {
    // A byte below 0x20 or from 0x80 (its high bit, or its high bit once
    // 0x20 is taken away), or one of the three: one test, no branch each.
    let bad =
      (word | (word &- 0x2020_2020_2020_2020)) & highs
      | zeros(word ^ (ones &* UInt64(UInt8(ascii: "&"))))
      | zeros(word ^ (ones &* UInt64(UInt8(ascii: "<"))))
      | zeros(word ^ (ones &* UInt64(UInt8(ascii: ">"))))
    return bad == 0
  }

  /// Whether `bytes` are all printable ASCII (0x20 to 0x7F) other than
  /// `&`, `<` and `>`: text XML holds as it is, with nothing to escape.
  static func isPlainText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let raw = UnsafeRawBufferPointer(bytes)
    while index + 8 <= bytes.count {
      if !isPlainWord(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return false }
      index += 8
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<")
        || byte == UInt8(ascii: ">")
      {
        return false
      }
      index += 1
    }
    return true
  }
}
