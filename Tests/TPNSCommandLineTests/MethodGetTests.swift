import Foundation
import TPNSKit
import TPNSTestSupport
import Testing

@testable import TPNSCommandLine

/// `--method get` sends the list in the query; a long one is more than a server reads
/// in a request line, and the answer (414, or 431 when the line fits but the headers
/// no longer do) is the client's to explain.
@Suite("--method get of a long list")
struct MethodGetTests {
  /// `count` distinct UIDs.
  static func uids(_ count: Int) -> [String] {
    (0..<count).map { number in
      let digits = String(number)
      return "ABCDEFGHJK" + String(repeating: "0", count: 10 - digits.count) + digits
    }
  }

  /// 250 UIDs make a query of about 10 KiB, which the emulator refuses itself; 1,000
  /// about 40 KiB, which libmicrohttpd refuses before the emulator sees it.
  @Test(
    "a list too long for a GET: exit 76 with the server's status and the hint to POST",
    arguments: [250, 1_000])
  func tooLongForGet(count: Int) throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    let result = try e2e.tpns.run(
      ["add", "--method", "get", "--allow-token-in-url"] + Self.uids(count))
    #expect(result.status == 76, "\(result.stderr)")
    #expect(result.stderr.contains("414"))
    #expect(
      result.stderr.hasSuffix(
        "The request is too long for a GET query: use --method post (the default).\n"))
    #expect(try e2e.server.requests().last?.status == 414)
    // The list is stored and pending: a sync by POST sends it.
    #expect(try e2e.tpns.run(["sync"]).status == 0)
    #expect(try e2e.replicaMatchesStore())
  }

  @Test("a 414 or a 431 is a rejection (76) whose hint says to POST", arguments: [414, 431])
  func hint(status: Int) {
    let failure = RequestFailure.status(status, body: "", retryAfter: nil)
    let (code, hint) = ExitStatus.of(PipelineFailure.request(.mapsync, failure))
    #expect(code.rawValue == 76)
    #expect(hint == "The request is too long for a GET query: use --method post (the default).")
  }
}
