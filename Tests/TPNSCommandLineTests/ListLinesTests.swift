import Testing

@testable import TPNSCommandLine
@testable import TPNSKit

/// `tpns list`'s lines, built in a buffer of ``List/chunkSize`` bytes and
/// written each time it is full.
@Suite struct ListLinesTests {
  /// The lists the lines are made of.
  enum Shape: String, CaseIterable, Sendable {
    /// 20-byte UIDs only (the lines made by word moves).
    case uids
    /// Two items of 19 and 21 bytes among them: as many bytes as 20-byte
    /// UIDs, not all of 20 (byte by byte).
    case sameBytesOtherLengths
    /// Settings after some UIDs, one line longer than a chunk, and items of
    /// other lengths.
    case settings
  }

  @Test(
    "the chunks make the lines one per UID, in order, whole, with their settings, however many",
    arguments: [1, 10, 3_000, 10_000], Shape.allCases)
  func chunks(count: Int, shape: Shape) {
    var uids = (0..<count).map {
      "UID" + String(repeating: "0", count: 17 - String($0).count) + String($0)
    }
    var suffixes: [String: [UInt8]] = [:]
    switch shape {
    case .uids: break
    case .sameBytesOtherLengths:
      if count > 9 {
        uids[8] = String(uids[8].dropLast())
        uids[9] += "X"
      }
    case .settings:
      for index in stride(from: 3, to: count, by: 7) {
        suffixes[uids[index]] = Array("  interval 30 s".utf8)
      }
      // A line longer than a chunk, built on its own.
      if count > 5 {
        suffixes[uids[5]] = Array(repeating: UInt8(ascii: "x"), count: List.chunkSize + 10)
      }
      if count > 9 {
        uids[8] = "SHORT"
        uids[9] = "LONGER-THAN-TWENTY-BYTES"
      }
    }
    let width = String(count - 1).count
    var chunks: [[UInt8]] = []
    List.writeLines(of: UIDList(uids), width: width, suffixes: suffixes) {
      chunks.append(Array($0))
    }
    let expected = uids.enumerated().map { index, uid in
      let number = String(index)
      return String(repeating: " ", count: width - number.count) + number + "  " + uid
        + String(decoding: suffixes[uid] ?? [], as: UTF8.self) + "\n"
    }.joined()
    #expect(String(decoding: chunks.joined(), as: UTF8.self) == expected)
    #expect(chunks.allSatisfy { !$0.isEmpty })
    #expect(chunks.count >= (expected.utf8.count + List.chunkSize - 1) / List.chunkSize)
  }

  struct Lost: Error {}

  @Test("a chunk that cannot be written stops the lines there: what was written is a prefix")
  func stopsAtTheFirstLostChunk() {
    let uids = UIDList(
      (0..<10_000).map { "UID" + String(repeating: "0", count: 17 - String($0).count) + String($0) }
    )
    var written: [UInt8] = []
    var calls = 0
    #expect(throws: Lost.self) {
      try List.writeLines(of: uids, width: 4) { chunk in
        calls += 1
        if calls == 2 { throw Lost() }
        written += chunk
      }
    }
    #expect(calls == 2)
    #expect(written.count > 0 && written.count <= List.chunkSize)
    let text = String(decoding: written, as: UTF8.self)
    #expect(text.hasPrefix("   0  UID00000000000000000\n"))
    #expect(text.hasSuffix("\n"))
  }
}
