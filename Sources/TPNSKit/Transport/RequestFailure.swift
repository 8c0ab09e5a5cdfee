import DurationFormatting
import TPNSProtocol

/// Why a request to the server did not succeed, in terms the retry policy and
/// the user care about.
public indirect enum RequestFailure: Error, Equatable, CustomStringConvertible {
  /// No HTTP answer at all (see ``TransportError``).
  case transport(TransportError)
  /// The server answered with a status other than 2xx.
  case status(Int, body: String, retryAfter: String?)
  /// The server asked to wait longer than the policy's limit for one wait.
  case retryAfterTooLong(Duration, limit: Duration, status: Int)
  /// The server asked to wait longer than the request's time limit has left.
  case retryAfterPastTimeLimit(Duration, left: Duration, status: Int)
  /// Every attempt failed; `last` is how the last one did.
  case exhausted(attempts: Int, last: RequestFailure)
  /// The time limit for the whole request ran out before another attempt.
  case timeLimitReached(Duration, attempts: Int, last: RequestFailure)

  /// Whether trying again may help: connect errors, timeouts, broken
  /// connections, 408, 429 and 5xx.
  public var isTransient: Bool {
    switch self {
    case .transport(let error): error.isTransient
    case .status(let status, _, _): status == 408 || status == 429 || (500..<600).contains(status)
    case .retryAfterTooLong, .retryAfterPastTimeLimit, .exhausted, .timeLimitReached: false
    }
  }

  /// Whether the server refused the request itself (a 4xx other than 408
  /// and 429): sending it again cannot help.
  var isRejection: Bool {
    guard case .status(let status, _, _) = underlying else { return false }
    return (400..<500).contains(status) && status != 408 && status != 429
  }

  /// Whether the server refused what a `client` request carried (400, 403,
  /// 409, 422 …), not where it went: a 404, 405 or 415 is a wrong `--server`.
  var isTokenRejection: Bool {
    guard isRejection, case .status(let status, _, _) = underlying else { return false }
    return ![404, 405, 406, 410, 413, 414, 415, 431].contains(status)
  }

  /// The failure behind any `exhausted` or `timeLimitReached` wrapping.
  public var underlying: RequestFailure {
    switch self {
    case .exhausted(_, let last), .timeLimitReached(_, _, let last): last.underlying
    default: self
    }
  }

  /// A body as a person reads it: an HTML page (a proxy's, or a web server's own
  /// error page) by its title, anything else trimmed.
  private static func summary(of body: String) -> String {
    let text = body.trimmingWhitespace()
    let lower = text.lowercased()
    guard text.hasPrefix("<"), lower.contains("<html") else { return text }
    // Lower-casing keeps ASCII markup in place, so offsets carry over.
    if let open = lower.firstRange(of: "<title>"), let close = lower.firstRange(of: "</title>"),
      open.upperBound <= close.lowerBound
    {
      let from = lower.distance(from: lower.startIndex, to: open.upperBound)
      let to = lower.distance(from: lower.startIndex, to: close.lowerBound)
      let characters = Array(text)
      if to <= characters.count {
        let title = String(characters[from..<to]).trimmingWhitespace()
        if !title.isEmpty { return "an HTML page titled '\(title)'" }
      }
    }
    return "an HTML page"
  }

  public var description: String {
    switch self {
    case .transport(let error):
      return error.description
    case .status(let status, let body, _):
      // On one line: control characters (newlines, escape sequences) escaped.
      let text = Self.summary(of: body).escapingControlCharacters
      let shown = text.count > 300 ? String(text.prefix(300)) + "…" : text
      return "the server answered \(status)\(shown.isEmpty ? "" : ": \(shown)")"
    case .retryAfterTooLong(let wait, let limit, let status):
      return
        "the server answered \(status) and asked to wait \(wait.spoken), "
        + "more than the \(limit.text(in: .seconds)) limit for one wait"
    case .retryAfterPastTimeLimit(let wait, let left, let status):
      return
        "the server answered \(status) and asked to wait \(wait.spoken), "
        + "more than the \(left.text(in: .seconds)) left of the time limit"
    case .exhausted(let attempts, let last):
      return "\(last) (gave up after \(attempts) attempts)"
    case .timeLimitReached(let limit, let attempts, let last):
      let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
      return "\(last) (gave up after \(tries): the \(limit.text(in: .seconds)) time limit)"
    }
  }
}
