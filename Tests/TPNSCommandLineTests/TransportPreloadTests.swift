import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSCommandLine

/// libcurl is loaded at run time: early, beside parsing, by a command line
/// that sends; never by one that does not (see CCurl.h).
@Suite struct TransportPreloadTests {
  @Test(
    "the raw arguments say whether a command will send",
    arguments: [
      (["sync"], true), (["add", "ABCDEFGHJKLMNPRSTUVW"], true), (["remove", "0"], true),
      (["register", "--token-file", "t"], true), (["watch"], true), (["rm-mapping", "X"], true),
      (["add", "X", "--no-sync"], false), (["import", "f", "--no-sync"], false),
      (["sync", "--help"], false), (["add", "-h"], false), (["add", "--", "--no-sync"], true),
      (["list"], false), (["status"], false), (["--version"], false), ([], false),
      (["completion", "bash"], false),
    ] as [([String], Bool)])
  func sends(arguments: [String], expected: Bool) {
    #expect(TransportPreload.sends(arguments) == expected)
  }

  /// The shared objects `tpns arguments…` loads, as the dynamic loader reports them.
  func loadedObjects(_ arguments: [String], e2e: EndToEnd) throws -> (Int32, [String]) {
    let result = try e2e.tpns.run(arguments, environment: ["LD_DEBUG": "files"])
    let loaded = result.stderr.split(separator: "\n").compactMap { line -> String? in
      guard let range = line.range(of: "file=") else { return nil }
      return String(line[range.upperBound...].prefix { $0 != " " && $0 != ";" })
    }
    return (result.status, loaded)
  }

  @Test("a command that does not send never loads libcurl; one that sends, and --version, do")
  func loadsOnlyToSend() throws {
    let e2e = try EndToEnd()
    var (status, loaded) = try loadedObjects(
      ["add", "ABCDEFGHJKLMNPRSTUVW", "--no-sync"], e2e: e2e)
    #expect(status == 0)
    #expect(!loaded.isEmpty)  // the loader reported what it loaded
    #expect(!loaded.contains { $0.hasPrefix("libcurl") }, "\(loaded)")
    (status, loaded) = try loadedObjects(["list"], e2e: e2e)
    #expect(status == 0)
    #expect(!loaded.contains { $0.hasPrefix("libcurl") }, "\(loaded)")
    (status, loaded) = try loadedObjects(["sync"], e2e: e2e)
    #expect(status == 0)
    #expect(loaded.contains("libcurl.so.4"), "\(loaded)")
    (status, loaded) = try loadedObjects(["--version"], e2e: e2e)
    #expect(status == 0)
    #expect(loaded.contains("libcurl.so.4"), "\(loaded)")
  }
}
