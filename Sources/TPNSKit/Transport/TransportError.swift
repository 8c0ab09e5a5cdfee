import DurationFormatting
import TPNSProtocol

/// Why a request got no HTTP response at all.
public enum TransportError: Error, Equatable, CustomStringConvertible {
  /// The server could not be reached: name not resolved, connection refused,
  /// no route, connect timeout.
  case unreachable(url: String, reason: String)
  /// No complete answer within the time limit.
  case timedOut(url: String, after: Duration)
  /// The connection broke before a full response arrived.
  case connectionLost(url: String, reason: String)
  /// TLS failed: usually the server's certificate could not be verified.
  case tls(url: String, reason: String)
  /// The URL is not an http or https URL libcurl can use.
  case invalidURL(String)
  /// The response body was larger than the transport accepts.
  case responseTooLarge(limit: Int)
  /// The request was cancelled by its caller.
  case cancelled
  /// libcurl could not be loaded (not installed): `reason` is the loader's.
  case libraryMissing(reason: String)
  /// Any other libcurl failure.
  case failed(reason: String)

  /// Whether trying again later may succeed (connect errors, timeouts, broken connections).
  public var isTransient: Bool {
    switch self {
    case .unreachable, .timedOut, .connectionLost: true
    case .tls, .invalidURL, .responseTooLarge, .cancelled, .libraryMissing, .failed: false
    }
  }

  /// The failure on one line; libcurl's reason (which may quote a
  /// certificate's or a server's text) with its control characters escaped.
  public var description: String {
    let text =
      switch self {
      case .unreachable(let url, let reason): "cannot reach \(url): \(reason)"
      case .timedOut(let url, let after):
        "no answer from \(url) within \(after.text(in: .seconds))"
      case .connectionLost(let url, let reason): "the connection to \(url) broke: \(reason)"
      case .tls(let url, let reason): "TLS with \(url) failed: \(reason)"
      case .invalidURL(let url): "'\(url)' is not an http:// or https:// URL"
      case .responseTooLarge(let limit): "the response was larger than \(limit) bytes"
      case .cancelled: "the request was cancelled"
      case .libraryMissing(let reason): "libcurl could not be loaded (\(reason))"
      case .failed(let reason): reason
      }
    return text.escapingControlCharacters
  }
}
