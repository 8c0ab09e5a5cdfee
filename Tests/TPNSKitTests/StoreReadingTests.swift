import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// Reading a store: the UTF-8 check, and the acknowledged list taken as the
/// stored one when they are equal.
@Suite struct StoreReadingTests {
  @Test(
    "a string is read exactly when String(validating:) takes its bytes as UTF-8",
    arguments: [
      [], Array("plain ASCII, longer than eight bytes".utf8), [0xC3, 0xA9], [0xE2, 0x82, 0xAC],
      [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
      // Overlong forms, surrogates, past U+10FFFF, stray and missing continuations.
      [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF], [0xED, 0xA0, 0x80],
      [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xC3], [0xE2, 0x82],
      [0xE2, 0x28, 0xA1], Array("12345678".utf8) + [0xC3], Array("1234567".utf8) + [0xC3, 0xA9],
    ] as [[UInt8]])
  func utf8(bytes: [UInt8]) {
    #expect(Self.reads(bytes) == (String(validating: bytes, as: UTF8.self) != nil))
  }

  /// Whether a property list holding `bytes` as a string is read.
  static func reads(_ bytes: [UInt8]) -> Bool {
    let document = Array("<plist>\n<string>".utf8) + bytes + Array("</string>\n</plist>\n".utf8)
    return (try? PropertyListXML.parse(document)) != nil
  }

  @Test("the reader agrees with String(validating:) on 5,000 random byte strings")
  func utf8Random() {
    // A fixed xorshift sequence: the same strings every run. Bytes are drawn
    // mostly from ASCII and the lead and continuation ranges, so that both
    // answers occur often.
    var random = XorShift(seed: 0x9E37_79B9_7F4A_7C15)
    func next() -> UInt64 { random.next() }
    let alphabet: [UInt8] = [
      0x41, 0x7A, 0x80, 0x9F, 0xA0, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5,
    ]
    var agreed = 0
    var validCount = 0
    for _ in 0..<5_000 {
      let length = Int(next() % 24)
      let bytes = (0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }
      let valid = Self.reads(bytes)
      let expected = String(validating: bytes, as: UTF8.self) != nil
      if valid == expected { agreed += 1 }
      if expected { validCount += 1 }
    }
    #expect(agreed == 5_000)
    #expect(validCount > 100)  // the valid side was exercised too
  }

  @Test(
    "an acknowledged list equal to the stored one is read as it; one that differs is still checked")
  func acknowledgedList() throws {
    let uids = (0..<300).map { String(format: "UID%017d", $0) }
    let stored = try StoreContents.validated(uids, key: "UIDs")
    let same = PropertyListValue.dictionary(["UIDs": .array(uids.map(PropertyListValue.string))])
    #expect(try Acknowledgement.read(same, server: "s", storedUIDs: stored).uids == stored)
    let repeated = PropertyListValue.dictionary([
      "UIDs": .array((uids + [uids[7]]).map(PropertyListValue.string))
    ])
    #expect(throws: StoreFormatError.self) {
      try Acknowledgement.read(repeated, server: "s", storedUIDs: stored)
    }
    let lowerCase = PropertyListValue.dictionary(["UIDs": .array([.string("abcdefghjklmnprstuvw")])]
    )
    #expect(
      try Acknowledgement.read(lowerCase, server: "s", storedUIDs: stored).uids == [
        "ABCDEFGHJKLMNPRSTUVW"
      ])
  }

  @Test(
    "readAll reads a regular file of any size around its first read's in one piece",
    arguments: [0, 1, 65_535, 65_536, 65_537, 300_001])
  func readAllSizes(size: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("input")
    let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    defer { close(descriptor) }
    #expect(try FileDescriptor.readAll(descriptor) == bytes)
  }

  @Test("readAll stops at its limit in a regular file", arguments: [0, 1, 4_096, 10_000])
  func readAllLimit(limit: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("input")
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 5) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    defer { close(descriptor) }
    #expect(try FileDescriptor.readAll(descriptor, limit: limit) == Array(bytes.prefix(limit)))
  }

  @Test("readAll reads a pipe (no size known) to its end, past its first 64 KiB")
  func readAllPipe() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    let writeEnd = ends[1]
    let writer = Thread {
      bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
          guard written > 0 else { break }
          offset += written
        }
      }
      close(writeEnd)
    }
    writer.start()
    defer { close(ends[0]) }
    #expect(try FileDescriptor.readAll(ends[0]) == bytes)
  }
}
