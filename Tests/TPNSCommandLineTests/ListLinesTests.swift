import Foundation
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
    #expect(
      result.stderr.contains("make room where the output goes (or give the command an open one)"))
  }

  @Test(
    "any command whose standard output cannot be written exits 74, saying the command ran to the end",
    arguments: [
      ["status"], ["status", "--json"], ["--help"], ["--version"], ["help", "add"],
      ["completion", "bash"], ["add", "--no-sync", "ABCDEFGHJKLMNPRSTUVW"],
    ])
  func outputLost(arguments: [String]) throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(
      viaShell: #""$0" "# + arguments.joined(separator: " ") + " > /dev/full")
    #expect(result.status == 74, "\(result.stderr)")
    #expect(
      result.stderr.hasSuffix(
        "Error: standard output could not be written: No space left on device\n"
          + "The command ran to the end; what it printed is incomplete.\n"),
      "\(result.stderr)")
  }

  @Test(
    "a reader that went away (a closed pipe) is no failure: a command that ignores SIGPIPE exits as it would have"
  )
  func closedPipe() throws {
    let e2e = try EndToEnd()
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TPNSProcess.binary)
    // `add` blocks SIGINT and SIGTERM for its interruption report, and ignores SIGPIPE.
    process.arguments = ["add", "--no-sync", "ABCDEFGHJKLMNPRSTUVW"]
    process.environment = TPNSProcess.environment(store: e2e.tpns.store, server: e2e.tpns.server)
    process.standardOutput = pipe.fileHandleForWriting
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(try e2e.tpns.run(["list"]).stdout == "0  ABCDEFGHJKLMNPRSTUVW\n")
  }

  @Test("output written whole exits 0: the check is of standard output alone")
  func outputWritten() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(viaShell: #""$0" status 2>/dev/full"#)
    #expect(result.status == 0)
    #expect(result.stdout.contains("pending"))
  }
}
