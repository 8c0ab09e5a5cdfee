import Testing

@testable import TPNSProtocol

/// The word-at-a-time checks against their byte-by-byte definitions, on
/// every single-byte change of a valid input and on random inputs.
@Suite struct WordChecksTests {
  static let uid = Array("0123456789ABCDEFGHJZ".utf8)

  /// A small deterministic generator (xorshift64).
  struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
  }

  static func isCanonical(naive bytes: [UInt8]) -> Bool {
    bytes.count == 20
      && bytes.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
  }

  static func isPlain(naive bytes: [UInt8]) -> Bool {
    bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
  }

  @Test(
    "a UID is canonical exactly when each of its 20 bytes is 0-9 or A-Z, whatever byte is changed where"
  )
  func canonicalUIDs() {
    #expect(DeviceUID.isCanonical(String(decoding: Self.uid, as: UTF8.self)))
    for position in 0..<20 {
      for byte in UInt8.min...UInt8.max {
        var bytes = Self.uid
        bytes[position] = byte
        let text = String(decoding: bytes, as: UTF8.self)
        let expected = Self.isCanonical(naive: Array(text.utf8))
        #expect(DeviceUID.isCanonical(text) == expected, "byte \(byte) at \(position)")
      }
    }
    for text in ["", "0123456789ABCDEFGHJ", "0123456789ABCDEFGHJKL", "0123456789abcdefghjk"] {
      #expect(!DeviceUID.isCanonical(text))
    }
  }

  @Test(
    "a JSON string needs no escaping exactly when no byte is a control, DEL, non-ASCII, quote or backslash"
  )
  func plainJSON() {
    var random = Random(state: 0x9E37_79B9_7F4A_7C15)
    for length in 0..<40 {
      for position in 0..<max(length, 1) {
        for byte in [0x00, 0x1F, 0x20, 0x22, 0x5C, 0x7E, 0x7F, 0x80, 0xFF, 0x41] as [UInt8] {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          if length > 0 { bytes[position] = byte }
          let expected = Self.isPlain(naive: bytes)
          #expect(bytes.withUnsafeBufferPointer(JSONString.isPlain) == expected)
        }
      }
    }
    for _ in 0..<2_000 {
      let bytes = (0..<Int(random.next() % 40)).map { _ in
        UInt8(
          truncatingIfNeeded: random.next() % 8 == 0 ? random.next() : 0x20 + random.next() % 0x5F)
      }
      #expect(bytes.withUnsafeBufferPointer(JSONString.isPlain) == Self.isPlain(naive: bytes))
    }
  }
}
