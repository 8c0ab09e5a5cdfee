import Foundation
import TPNSKit
import TPNSTestSupport
import Testing

@testable import TPNSCommandLine

/// `tpns add --from FILE`: what a file may hold, and errors that name the
/// file and line.
@Suite struct FromFileTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"

  @Test(
    "lines: LF or CRLF, white space trimmed, blank lines and # comments skipped, a UTF-8 BOM left out",
    arguments: [
      ("\u{FEFF}\(a)\n\(b)\n", [(a, 1), (b, 2)]),
      ("\(a)\r\n# a comment\r\n\r\n  \(b)  \r\n", [(a, 1), (b, 4)]),
      ("# only\n\n", []),
      ("\u{FEFF}# first line\n\(a)", [(a, 2)]),
      ("\(a)\n\u{FEFF}\(b)\n", [(a, 1), ("\u{FEFF}\(b)", 2)]),
    ] as [(String, [(String, Int)])])
  func lines(text: String, expected: [(String, Int)]) {
    let lines = Add.lines(of: Array(text.utf8), name: "uids.txt")
    #expect(lines == expected.map { UIDInput($0.0, location: "uids.txt:\($0.1)") })
  }

  @Test("a file with a BOM, CRLF line ends and comments adds every UID in it")
  func bomAndCRLF() throws {
    let e2e = try EndToEnd()
    let file = e2e.directory.file("uids.txt")
    try Data(("\u{FEFF}# devices\r\n\(Self.a)\r\n\r\n\(Self.b)\r\n").utf8)
      .write(to: URL(fileURLWithPath: file))
    let result = try e2e.tpns.run(["add", "--no-sync", "--from", file])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try e2e.store.load().uids == [Self.a, Self.b])
  }

  @Test("a file with no UIDs is said so on stderr (not with --quiet); nothing is stored")
  func emptyFile() throws {
    let e2e = try EndToEnd()
    let file = e2e.directory.file("uids.txt")
    try Data("# nothing yet\n\n".utf8).write(to: URL(fileURLWithPath: file))
    let result = try e2e.tpns.run(["add", "--no-sync", "--from", file])
    #expect(result.status == 0)
    #expect(result.stderr == "no UIDs in \(file) (blank lines and # comments only)\n")
    #expect(try e2e.tpns.run(["add", "--no-sync", "--from", file, "--quiet"]).stderr == "")
    #expect(try e2e.store.load().uids == [])
  }

  @Test("an invalid UID in a file is named with the file and the line; nothing is stored")
  func invalidLine() throws {
    let e2e = try EndToEnd()
    let file = e2e.directory.file("uids.txt")
    let lines = (0..<9_875).map { String(format: "FROMFILE%012d", $0) } + ["BAD-UID"]
    try Data(("# header\n" + lines.joined(separator: "\n")).utf8)
      .write(to: URL(fileURLWithPath: file))
    let result = try e2e.tpns.run(["add", "--from", file])
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "Error: invalid UID 'BAD-UID' at \(file):9877: character '-' at position 4 is not "
        + "allowed in a UID (only A-Z and 0-9)\n"
        + "A UID is 20 characters of A-Z and 0-9, as printed on the device.\n")
    #expect(contents(of: e2e.tpns.store) == nil)
  }

  @Test("standard input is named <stdin>")
  func standardInputLine() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(viaShell: "printf '\(Self.a)\\nshort\\n' | \"$0\" add --from -")
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("Error: invalid UID 'short' at <stdin>:2: "))
  }

  @Test("a file that cannot be read: 66 naming it, with the next step")
  func unreadable() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["add", "--from", e2e.directory.path])
    #expect(result.status == 66)
    #expect(
      result.stderr
        == "Error: cannot read \(e2e.directory.path): Is a directory\n"
        + "Check the path and its permissions, or pass '-' to read standard input.\n")
  }
}
