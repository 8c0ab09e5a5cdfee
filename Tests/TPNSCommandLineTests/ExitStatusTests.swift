import TPNSKit
import TPNSProtocol
import Testing

@testable import TPNSCommandLine

@Suite struct ExitStatusTests {
  static let url = "http://127.0.0.1:1/tpns"
  static let down = RequestFailure.exhausted(
    attempts: 3, last: .transport(.unreachable(url: url, reason: "refused")))
  static let refused = RequestFailure.status(400, body: "error: bad uid", retryAfter: nil)
  static let busy = RequestFailure.timeLimitReached(
    .seconds(2), attempts: 2, last: .status(503, body: "", retryAfter: nil))

  @Test(
    "a failed request's exit status follows DESIGN.md, and its hint fits what the request was for",
    arguments: [
      (CommandName.mapsync, down, 69, "run 'tpns sync'"),
      (.mapsync, refused, 76, "fix what the server objects to, then run 'tpns sync'"),
      (.mapsync, busy, 75, "run 'tpns sync'"),
      (.client, down, 69, "run 'tpns sync' once it answers"),
      (.client, refused, 76, "Nothing was registered"),
      (.event, down, 69, "Nothing was stored"),
    ])
  func requestFailure(command: CommandName, failure: RequestFailure, code: Int32, hint: String) {
    let (exitCode, text) = ExitStatus.of(PipelineFailure.request(command, failure))
    #expect(exitCode.rawValue == code)
    #expect(text?.contains(hint) == true)
  }

  @Test("a rejected event says what to check, and that nothing was stored")
  func rejectedEvent() {
    #expect(
      ExitStatus.of(PipelineFailure.request(.event, Self.refused)).hint
        == "Check the UID, --type and --message; nothing was stored.")
  }
}

@Suite struct ServerURLTests {
  @Test(
    "a server URL is http or https with a host, and nothing libcurl would send as is",
    arguments: [
      ("http://127.0.0.1:7380/tpns", true),
      ("HTTPS://push.example.com/tpns", true),
      ("http://[::1]:7380/tpns", true),
      ("ftp://127.0.0.1/tpns", false),
      ("http:///tpns", false),
      ("http://", false),
      ("http://127.0.0.1/\ntpns", false),
      ("http://127.0.0.1/t pns", false),
      ("http://exämple.com/tpns", false),
      ("127.0.0.1:7380/tpns", false),
    ])
  func serverURL(text: String, valid: Bool) {
    #expect(GlobalOptions.isServerURL(text) == valid)
  }
}
