import TPNSTestSupport
import Testing

@testable import TPNSKit

/// The 8-bytes-at-a-time searches agree with a byte-by-byte look.
@Suite struct ByteScanTests {
  /// A fixed xorshift sequence of strings of bytes, mostly printable, with
  /// the bytes the scans look for, controls and non-ASCII mixed in.
  static func samples() -> [[UInt8]] {
    var random = XorShift(seed: 0x2545_F491_4F6C_DD1D)
    func next() -> UInt64 { random.next() }
    let special: [UInt8] = [0x26, 0x3C, 0x3E, 0x00, 0x09, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
    return (0..<3_000).map { _ in
      let length = Int(next() % 40)
      return (0..<length).map { _ in
        next() % 16 == 0
          ? special[Int(next() % UInt64(special.count))] : UInt8(0x41 + next() % 26)
      }
    }
  }

  @Test("isPlainText is: every byte printable ASCII, none of & < >")
  func plainText() {
    var plain = 0
    for bytes in Self.samples() {
      let expected = bytes.allSatisfy {
        $0 >= 0x20 && $0 < 0x80 && ![0x26, 0x3C, 0x3E].contains($0)
      }
      #expect(bytes.withUnsafeBufferPointer(ByteScan.isPlainText) == expected, "\(bytes)")
      if expected { plain += 1 }
    }
    #expect(plain > 300)  // both answers were exercised
  }

  @Test("firstIndex finds the first of two bytes from any start, or the end")
  func firstIndex() {
    for bytes in Self.samples() {
      for start in [0, 1, 7, 8, 9].filter({ $0 <= bytes.count }) {
        let expected =
          bytes[start...].firstIndex { $0 == 0x3C || $0 == 0x26 } ?? bytes.count
        let found = bytes.withUnsafeBufferPointer {
          ByteScan.firstIndex(of: 0x3C, or: 0x26, in: $0, from: start)
        }
        #expect(found == expected, "\(bytes) from \(start)")
      }
    }
  }
}
