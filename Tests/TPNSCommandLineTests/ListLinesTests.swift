import Testing

@testable import TPNSCommandLine
@testable import TPNSKit

/// `tpns list`'s lines.
@Suite struct ListLinesTests {
  @Test(
    "one line per UID, in order, its index right-aligned to the widest, then its settings",
    arguments: [
      ([String](), [String: String](), ""),
      (["ABCDEFGHJKLMNPRSTUVW"], [:], "0  ABCDEFGHJKLMNPRSTUVW\n"),
      (
        ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK"],
        ["0123456789ABCDEFGHJK": "  interval 30 s"],
        "0  ABCDEFGHJKLMNPRSTUVW\n1  0123456789ABCDEFGHJK  interval 30 s\n"
      ),
    ])
  func lines(uids: [String], suffixes: [String: String], expected: String) {
    let lines = List.lines(of: uids, suffixes: suffixes)
    #expect(String(decoding: lines, as: UTF8.self) == expected)
  }

  @Test("with 10,000 UIDs the indexes take four columns: '   0' to '9999'")
  func width() {
    let uids = (0..<10_000).map {
      "UID" + String(repeating: "0", count: 17 - String($0).count) + String($0)
    }
    let lines = String(decoding: List.lines(of: uids), as: UTF8.self)
      .split(separator: "\n")
    #expect(lines.count == 10_000)
    #expect(lines.first == "   0  UID00000000000000000")
    #expect(lines[99] == "  99  UID00000000000000099")
    #expect(lines.last == "9999  UID00000000000009999")
  }
}

@Suite struct ListOutputTests {
  @Test("a list that cannot be written to standard output exits 74, saying what to do")
  func fullDisk() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["add", "--no-sync", "ABCDEFGHJKLMNPRSTUVW"]).status == 0)
    let result = try e2e.tpns.run(viaShell: #""$0" list > /dev/full"#)
    #expect(result.status == 74)
    #expect(result.stderr.contains("the list could not be written to standard output"))
    #expect(result.stderr.contains("make room where the output goes"))
  }
}
