import Foundation
import TPNSTestSupport
import Testing

/// What a new user's trial of the redesigned command line found:
/// each case as it was met.
@Suite struct NewUserTrialTests {
  @Test("a store path that is a directory: 73, and the hint says to name a file in it")
  func directoryStore() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.path, server: "http://127.0.0.1:1/tpns")
    let result = try tpns.run(["list"])
    #expect(result.status == 73)
    #expect(
      result.stderr.hasSuffix(
        "--store takes a file's path: pass one in that directory, such as --store "
          + "\(directory.path)/state.plist.\n"))
  }

  @Test("list --json names the server TPNS_SERVER chooses, its credentials hidden")
  func listServer() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(
      store: directory.file("state.plist"), server: "http://me:secret@127.0.0.1:9/tpns")
    let result = try tpns.run(["list", "--json"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("\"command\":\"list\""))
    let failed = try TPNSProcess(store: directory.path, server: "http://127.0.0.1:9/tpns")
      .run(["list", "--json"])
    #expect(failed.stdout.contains("\"server\":\"http://127.0.0.1:9/tpns\""))
  }

  @Test("an empty --uid is an invalid UID (65), decided where every UID is, not a usage error")
  func emptyUID() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    #expect(try tpns.run(["add", "--no-sync", "ABCDEFGHJKLMNPRSTUVW"]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: directory.file("state.plist")))
    for command in [["remove", "--uid", "", "--no-sync"], ["unregister", "--uid", ""]] {
      let result = try tpns.run(command)
      #expect(result.status == 65)
      #expect(result.stderr.hasPrefix("Error: invalid UID '': the UID is empty\n"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("state.plist"))) == before)
  }

  @Test("TPNS_SERVER that is no URL says what it must be, with a password hidden")
  func environmentServer() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(
      store: directory.file("state.plist"), server: "ftp://me:secret@example.com/tpns")
    let result = try tpns.run(["status"])
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "Error: TPNS_SERVER must be an http:// or https:// URL with a host (and a port from 0 to 65535, if any), got \"ftp://***@example.com/tpns\"\n"
      ))
    #expect(!result.stderr.contains("secret"))
  }
}
