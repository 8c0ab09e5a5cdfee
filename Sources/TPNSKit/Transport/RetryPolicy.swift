import Reactive
import TPNSProtocol

/// When to try a failed request again, and after how long: at most
/// `maxAttempts`, only transient failures (``RequestFailure/isTransient``),
/// each after a "full jitter" wait between zero and `min(cap, base × 2ⁿ⁻¹)`,
/// or what a `Retry-After` asks for (more than `cap` ends the retries).
/// The random source and the wall clock are injected:
///
///     let policy = RetryPolicy(random: { 0.5 })
///     policy.decide(.transport(.timedOut(…)), attempt: 1)  // .retry(after: .milliseconds(250))
public struct RetryPolicy: Sendable {
  /// Attempts in all, the first included.
  public var maxAttempts: Int
  /// The jitter range of the first wait.
  public var base: Duration
  /// The longest single wait.
  public var cap: Duration
  /// A number in `0..<1`.
  public var random: @Sendable () -> Double
  /// The current wall-clock time in seconds since 1970, for `Retry-After` HTTP-dates.
  public var now: @Sendable () -> Double
  /// The most one request may take, all attempts and waits included
  /// (`--timeout`); `nil` for no limit beyond the attempts'.
  public var timeLimit: Duration?

  /// The policy of docs/ARCHITECTURE.md ("The protocol"): 3 attempts, base 0.5 s, cap 20 s.
  public init(
    maxAttempts: Int = 3,
    base: Duration = .milliseconds(500),
    cap: Duration = .seconds(20),
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    now: @escaping @Sendable () -> Double = WallClock.secondsSince1970,
    timeLimit: Duration? = nil
  ) {
    precondition(maxAttempts >= 1, "a retry policy needs at least one attempt")
    self.maxAttempts = maxAttempts
    self.base = base
    self.cap = cap
    self.random = random
    self.now = now
    self.timeLimit = timeLimit
  }

  /// What to do after attempt number `attempt` (1 for the first) failed with
  /// `failure`, `elapsed` after the first attempt started. A request that
  /// must not be repeated (`idempotent` false: an event, which pushes) is not
  /// retried after a timeout or a broken connection: it may have arrived.
  public func decide(
    _ failure: RequestFailure, attempt: Int, idempotent: Bool = true, elapsed: Duration = .zero
  ) -> RetryDecision {
    // Read once: an HTTP-date is measured from `now`, which moves between reads.
    var requested: (delay: Duration, status: Int)?
    if case .status(let status, _, let retryAfter?) = failure,
      let delay = retryAfterDelay(retryAfter)
    {
      requested = (delay, status)
    }
    guard failure.isTransient else { return .fail(failure) }
    if !idempotent {
      switch failure {
      case .transport(.timedOut), .transport(.connectionLost): return .fail(failure)
      default: break
      }
    }
    // A wait the server asked for replaces the backoff; one too long is named, so that
    // the user sees why.
    if let requested, requested.delay > cap {
      return .fail(
        RequestFailure.retryAfterTooLong(requested.delay, limit: cap, status: requested.status))
    }
    guard attempt < maxAttempts else {
      return .fail(RequestFailure.exhausted(attempts: attempt, last: failure))
    }
    let delay = requested?.delay ?? backoff(attempt: attempt)
    guard let timeLimit, elapsed + delay >= timeLimit else { return .retry(after: delay) }
    if let requested {
      return .fail(
        RequestFailure.retryAfterPastTimeLimit(
          requested.delay, left: max(timeLimit - elapsed, .zero), status: requested.status))
    }
    return .fail(RequestFailure.timeLimitReached(timeLimit, attempts: attempt, last: failure))
  }

  /// The time an attempt starting `elapsed` after the first may take: what is
  /// left of `timeLimit` (at least a millisecond), or `nil` without a limit.
  public func remainingTime(elapsed: Duration) -> Duration? {
    timeLimit.map { max($0 - elapsed, .milliseconds(1)) }
  }

  /// The full-jitter wait after failed attempt number `attempt`.
  public func backoff(attempt: Int) -> Duration {
    let exponent = min(max(attempt - 1, 0), 32)
    let ceiling = min(cap, base * (1 << exponent))
    return ceiling * min(max(random(), 0), 1)
  }

  /// The wait a `Retry-After` value asks for: delay-seconds, or an HTTP-date
  /// (a date in the past means no wait). `nil` if it is neither.
  public func retryAfterDelay(_ value: String) -> Duration? {
    let text = value.trimmingWhitespace()
    if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
      guard let seconds = Int64(text) else { return .seconds(Int64.max / 2) }
      return .seconds(seconds)
    }
    let now = now()
    guard let date = Self.httpDate(text, now: now) else { return nil }
    let seconds = date - now
    return seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded(.up))) : .zero
  }

  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// The seconds since 1970 of an RFC 9110 HTTP-date in any of the three forms a
  /// recipient must accept: the IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the
  /// obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`, whose year more than 50
  /// years after `now` is the century's before) and asctime's (`Sun Nov  6 08:49:37
  /// 1994`); parsed without a date formatter (and ICU); `nil` for any other text.
  static func httpDate(_ text: String, now: Double) -> Double? {
    let parts = text.split(separator: " ")
    let fields: (day: Substring, month: Substring, year: Substring, time: Substring)
    var isRFC850 = false
    if parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" {
      fields = (parts[1], parts[2], parts[3], parts[4])
    } else if parts.count == 4, parts[0].hasSuffix(","), parts[3] == "GMT" {
      let date = parts[1].split(separator: "-", omittingEmptySubsequences: false)
      guard date.count == 3 else { return nil }
      fields = (date[0], date[1], date[2], parts[2])
      isRFC850 = true
    } else if parts.count == 5, !parts[0].hasSuffix(",") {
      fields = (parts[2], parts[1], parts[4], parts[3])
    } else {
      return nil
    }
    // Numbers as digits alone: `Int` would take a sign.
    func number(_ text: Substring) -> Int? { text.allSatisfy(\.isWholeNumber) ? Int(text) : nil }
    guard let day = number(fields.day), (1...31).contains(day),
      let monthIndex = Self.months.firstIndex(of: String(fields.month)),
      var year = number(fields.year),
      isRFC850 ? fields.year.count == 2 : (1970...9999).contains(year)
    else { return nil }
    let time = fields.time.split(separator: ":")
    guard time.count == 3, let hour = number(time[0]), let minute = number(time[1]),
      let second = number(time[2]), (0..<24).contains(hour), (0..<60).contains(minute),
      (0...60).contains(second)
    else { return nil }
    func seconds(_ year: Int) -> Double {
      Double(
        CivilDate.seconds(
          year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second))
    }
    if isRFC850 {
      year += 2000
      if seconds(year) > now + 50 * 365.2425 * 86_400 { year -= 100 }
    }
    return seconds(year)
  }
}
