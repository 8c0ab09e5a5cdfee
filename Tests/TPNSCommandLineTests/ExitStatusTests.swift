import TPNSKit
import TPNSProtocol
import Testing

@testable import TPNSCommandLine

@Suite struct ExitStatusTests {
  static let url = "http://127.0.0.1:1/tpns"
  static let down = RequestFailure.exhausted(
    attempts: 3, last: .transport(.unreachable(url: url, reason: "refused")))
  static let refused = RequestFailure.status(400, body: "error: bad uid", retryAfter: nil)
  static let missing = RequestFailure.transport(
    .libraryMissing(reason: "libcurl.so.4: cannot open shared object file"))
  static let busy = RequestFailure.timeLimitReached(
    .seconds(2), attempts: 2, last: .status(503, body: "", retryAfter: nil))

  @Test(
    "a failed request's exit status follows README's exit statuses, and its hint fits what the request was for",
    arguments: [
      (CommandName.mapsync, down, 69, "run 'tpns sync'"),
      (.mapsync, refused, 76, "fix what the server objects to, then run 'tpns sync'"),
      (.mapsync, busy, 75, "run 'tpns sync'"),
      (.client, down, 69, "run 'tpns sync' once it answers"),
      (.client, refused, 76, "Nothing was registered"),
      (.event, down, 69, "Nothing was stored"),
      (
        .mapsync, missing, 69,
        "Install libcurl (apt-get install libcurl4), then run 'tpns sync'"
      ),
      (
        .client, missing, 69,
        "Install libcurl (apt-get install libcurl4), then run 'tpns sync'"
      ),
      (.event, missing, 69, "then run the command again; nothing was stored"),
    ])
  func requestFailure(command: CommandName, failure: RequestFailure, code: Int32, hint: String) {
    let (exitCode, text) = ExitStatus.of(PipelineFailure.request(command, failure))
    #expect(exitCode.rawValue == code)
    #expect(text?.contains(hint) == true)
  }

  @Test("a rejected event's hint names what to check against the server's reason")
  func rejectedEvent() {
    #expect(
      ExitStatus.of(PipelineFailure.request(.event, Self.refused)).hint
        == "Check the UID, --type, --message and --time against the server's reason.")
  }

  @Test("a rejected device query's hint names only what device takes: the UID")
  func rejectedDevice() {
    #expect(
      ExitStatus.of(PipelineFailure.request(.device, Self.refused)).hint
        == "Check the UID against the server's reason.")
  }

  @Test(
    "every pipeline failure has a next step",
    arguments: [
      PipelineFailure.invalidUID("x", .empty(.uid)), .invalidToken(.empty(.iosToken)),
      .invalidIndex(3, count: 1), .missingUDID(.android),
      .store(.lockTimeout(lockPath: "s.lock", seconds: 10)),
      .request(.event, down), .request(.client, refused),
    ])
  func everyFailureHasAHint(failure: PipelineFailure) {
    #expect(ExitStatus.of(failure).hint?.isEmpty == false)
  }

  @Test(
    "an invalid token's hint is about the OS it was checked for, naming the other OS's option",
    arguments: [
      (IdentifierError.length(.iosToken, actual: 2, expected: 64...64), "An iOS token is 64 hex"),
      (.truncatedIOSDescription, "An iOS token is 64 hex"),
      (.empty(.androidToken), "An Android (FCM) token is 1 to 4096"),
      (.character(.androidToken, " ", position: 3), "An Android (FCM) token is 1 to 4096"),
    ])
  func tokenHint(error: IdentifierError, prefix: String) {
    let hint = ExitStatus.tokenHint(error)
    #expect(hint.hasPrefix(prefix))
    #expect(hint.contains(prefix.contains("iOS") ? "--os android" : "--os ios"))
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
      ("http://127.0.0.1:65535/tpns", true),
      ("http://127.0.0.1:/tpns", true),
      ("http://127.0.0.1:99999/tpns", false),
      ("http://127.0.0.1:80x/tpns", false),
      ("http://[::1]:70000/tpns", false),
      ("http://me:pw@127.0.0.1:99999/tpns", false),
    ])
  func serverURL(text: String, valid: Bool) {
    #expect(ServerURL.isAcceptable(text) == valid)
  }
}
