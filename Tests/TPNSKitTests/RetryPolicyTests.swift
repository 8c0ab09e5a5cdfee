import FoundationEssentials
import Locking
import Reactive
import ReactiveTesting
import Testing

@testable import TPNSKit

@Suite struct RetryPolicyTests {
  static let url = "http://127.0.0.1:1/tpns"
  static let unreachable = RequestFailure.transport(.unreachable(url: url, reason: "refused"))

  /// The delay of a retry decision, or nil for a failure.
  static func delay(_ decision: RetryDecision) -> Duration? {
    if case .retry(let delay) = decision { return delay }
    return nil
  }

  static func failure(_ decision: RetryDecision) -> RequestFailure? {
    if case .fail(let error) = decision { return error as? RequestFailure }
    return nil
  }

  @Test(
    "full jitter: the wait is random × min(cap, base × 2^(attempt-1))",
    arguments: [
      (1, 1.0, Duration.milliseconds(500)),
      (1, 0.5, .milliseconds(250)),
      (2, 1.0, .seconds(1)),
      (3, 0.5, .seconds(1)),
      (6, 1.0, .seconds(16)),
      (7, 1.0, .seconds(20)),
      (40, 1.0, .seconds(20)),
      (3, 0.0, .zero),
    ])
  func backoff(attempt: Int, random: Double, expected: Duration) {
    let policy = RetryPolicy(random: { random })
    #expect(policy.backoff(attempt: attempt) == expected)
  }

  @Test(
    "only connect errors, timeouts, broken connections, 408, 429 and 5xx are retried",
    arguments: [
      (unreachable, true),
      (.transport(.timedOut(url: url, after: .seconds(2))), true),
      (.transport(.connectionLost(url: url, reason: "reset")), true),
      (.transport(.tls(url: url, reason: "self-signed")), false),
      (.transport(.invalidURL("ftp://x")), false),
      (.status(408, body: "", retryAfter: nil), true),
      (.status(429, body: "", retryAfter: nil), true),
      (.status(500, body: "", retryAfter: nil), true),
      (.status(503, body: "", retryAfter: nil), true),
      (.status(400, body: "bad uid", retryAfter: nil), false),
      (.status(404, body: "", retryAfter: nil), false),
      (.status(302, body: "", retryAfter: nil), false),
    ] as [(RequestFailure, Bool)])
  func retried(failure: RequestFailure, retried: Bool) {
    let policy = RetryPolicy(random: { 0.5 })
    #expect((Self.delay(policy.decide(failure, attempt: 1)) != nil) == retried)
  }

  @Test(
    "a request that must not be repeated (an event) is not retried after a timeout or a broken connection",
    arguments: [
      (RequestFailure.transport(.timedOut(url: url, after: .seconds(2))), false),
      (.transport(.connectionLost(url: url, reason: "reset")), false),
      (unreachable, true),
      (.status(503, body: "", retryAfter: nil), true),
      (.status(429, body: "", retryAfter: nil), true),
    ])
  func notIdempotent(failure: RequestFailure, retried: Bool) {
    let decision = RetryPolicy(random: { 0.5 }).decide(failure, attempt: 1, idempotent: false)
    #expect((Self.delay(decision) != nil) == retried)
  }

  @Test(
    "with a time limit, no wait is started that would end at or past it",
    arguments: [
      (Duration.zero, Duration?.some(.milliseconds(500))),
      (.milliseconds(1499), .milliseconds(500)),
      (.milliseconds(1500), nil),
      (.seconds(3), nil),
    ])
  func timeLimit(elapsed: Duration, expected: Duration?) {
    let policy = RetryPolicy(random: { 1 }, timeLimit: .seconds(2))
    let decision = policy.decide(Self.unreachable, attempt: 1, elapsed: elapsed)
    #expect(Self.delay(decision) == expected)
    if expected == nil {
      #expect(
        Self.failure(decision)
          == .timeLimitReached(.seconds(2), attempts: 1, last: Self.unreachable))
    }
    #expect(policy.remainingTime(elapsed: elapsed) == max(.seconds(2) - elapsed, .milliseconds(1)))
    #expect(RetryPolicy().remainingTime(elapsed: elapsed) == nil)
  }

  @Test("a Retry-After that fits the cap but not the time left fails at once, naming the wait")
  func retryAfterPastTimeLimit() {
    let policy = RetryPolicy(random: { 1 }, timeLimit: .seconds(5))
    let busy = RequestFailure.status(503, body: "busy", retryAfter: "10")
    let decision = policy.decide(busy, attempt: 1, elapsed: .milliseconds(20))
    let expected = RequestFailure.retryAfterPastTimeLimit(
      .seconds(10), left: .milliseconds(4980), status: 503)
    #expect(Self.failure(decision) == expected)
    #expect(
      "\(expected)"
        == "the server answered 503 and asked to wait 10 s, more than the 4.98 s left of the time limit"
    )
    #expect(Self.delay(policy.decide(busy, attempt: 1, elapsed: .zero)) == nil)
    #expect(
      Self.delay(RetryPolicy(timeLimit: .seconds(30)).decide(busy, attempt: 1)) == .seconds(10))
  }

  @Test("a Retry-After date past the time left is named even while the clock moves")
  func retryAfterDatePastTimeLimit() {
    // Each reading of the clock is a second later than the one before.
    let readings = LockedState(0)
    let policy = RetryPolicy(
      now: {
        let second = readings.withLock { count in
          defer { count += 1 }
          return count
        }
        return 784_111_770 + Double(second)
      }, timeLimit: .seconds(5))
    let busy = RequestFailure.status(503, body: "", retryAfter: "Sun, 06 Nov 1994 08:49:40 GMT")
    #expect(
      Self.failure(policy.decide(busy, attempt: 1))
        == .retryAfterPastTimeLimit(.seconds(10), left: .seconds(5), status: 503))
    #expect(readings.value == 1)
  }

  @Test("a failure that is not retried comes back unchanged")
  func rejectedUnchanged() {
    let rejected = RequestFailure.status(400, body: "bad uid", retryAfter: nil)
    #expect(Self.failure(RetryPolicy().decide(rejected, attempt: 1)) == rejected)
  }

  @Test("after the third attempt it gives up, saying how many attempts were made")
  func exhausted() {
    let policy = RetryPolicy(random: { 1 })
    #expect(Self.delay(policy.decide(Self.unreachable, attempt: 1)) == .milliseconds(500))
    #expect(Self.delay(policy.decide(Self.unreachable, attempt: 2)) == .seconds(1))
    let last = Self.failure(policy.decide(Self.unreachable, attempt: 3))
    #expect(last == .exhausted(attempts: 3, last: Self.unreachable))
    #expect(last?.underlying == Self.unreachable)
    #expect("\(last!)".hasSuffix("(gave up after 3 attempts)"))
  }

  @Test("Retry-After in seconds replaces the backoff")
  func retryAfterSeconds() {
    let policy = RetryPolicy(random: { 0 })
    let busy = RequestFailure.status(503, body: "busy", retryAfter: "1")
    #expect(Self.delay(policy.decide(busy, attempt: 1)) == .seconds(1))
  }

  @Test("Retry-After as an HTTP-date is measured from the injected clock")
  func retryAfterDate() {
    let now: Double = 784_111_770  // Sun, 06 Nov 1994 08:49:30 GMT
    let policy = RetryPolicy(random: { 0 }, now: { now })
    let busy = RequestFailure.status(503, body: "", retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(Self.delay(policy.decide(busy, attempt: 1)) == .seconds(7))
    let past = RequestFailure.status(503, body: "", retryAfter: "Sun, 06 Nov 1994 08:00:00 GMT")
    #expect(Self.delay(policy.decide(past, attempt: 1)) == .zero)
  }

  @Test("a Retry-After longer than the cap fails at once, saying the server asked to wait")
  func retryAfterTooLong() throws {
    let policy = RetryPolicy()
    let failure = try #require(
      Self.failure(
        policy.decide(.status(429, body: "", retryAfter: "3600"), attempt: 1)))
    #expect(failure == .retryAfterTooLong(.seconds(3600), limit: .seconds(20), status: 429))
    #expect("\(failure)".contains("asked to wait an hour"))
  }

  @Test(
    "Retry-After values",
    arguments: [
      ("0", Duration.zero),
      ("120", .seconds(120)),
      (" 5 ", .seconds(5)),
      ("Sun, 06 Nov 1994 08:49:40 GMT", .seconds(10)),
      ("Thu, 01 Jan 1970 00:00:00 GMT", .zero),
      // RFC 9110's obsolete forms, which a recipient must accept too.
      ("Sunday, 06-Nov-94 08:49:37 GMT", .seconds(7)),
      ("Sun Nov  6 08:49:37 1994", .seconds(7)),
      ("Sun Nov 06 08:49:41 1994", .seconds(11)),
      // A two-digit year less than 50 years ahead is this century's; one more, the last.
      ("Saturday, 07-Nov-43 08:49:30 GMT", .seconds(1_546_387_200)),
      ("Monday, 07-Nov-44 08:49:30 GMT", .zero),
    ])
  func retryAfterValues(value: String, expected: Duration) {
    let now: Double = 784_111_770
    #expect(RetryPolicy(now: { now }).retryAfterDelay(value) == expected)
  }

  @Test(
    "a Retry-After that is neither seconds nor an HTTP-date is ignored",
    arguments: [
      "soon", "-5", "1.5", "", "٣", "Sunday, 06-Nov-1994 08:49:37 GMT",
      "Sun, 06 Nov 94 08:49:37 GMT",
      "Sun Nov  6 08:49:37 94", "Sun Nov  6 25:49:37 1994", "Sun Foo  6 08:49:37 1994",
      "Sunday, 06-Nov-+9 08:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT",
    ])
  func retryAfterInvalid(value: String) {
    #expect(RetryPolicy().retryAfterDelay(value) == nil)
  }

  @Test("on the virtual clock: two 503s then success waits exactly the backoff, no more")
  func onTheVirtualClock() {
    let scheduler = TestScheduler()
    let policy = RetryPolicy(random: { 1 })
    let attempts = LockedState(0)
    let request = Observable<String>.deferred {
      let attempt = attempts.withLock { attempts in
        attempts += 1
        return attempts
      }
      guard attempt >= 3 else { throw RequestFailure.status(503, body: "", retryAfter: nil) }
      return .just("ok")
    }
    let res = scheduler.start(disposed: 5000) {
      request.retry(on: scheduler) { error, attempt in
        policy.decide(error as! RequestFailure, attempt: attempt)
      }
    }
    // 200: fails, waits 500 ms; 700: fails, waits 1 s; 1700: succeeds.
    #expect(res.events == [.next(1700, "ok"), .completed(1700)])
    #expect(attempts.value == 3)
  }
}
