import ArgumentParsing
import DurationFormatting
import TPNSKit
import TPNSProtocol

// The typed values tpns options take: a value that does not read as one is
// a usage error naming the option (exit 64), before anything is stored or sent.

/// A server URL: http or https, a host, and no white space, control or
/// non-ASCII characters (which libcurl would send as is).
extension ServerURL: ExpressibleByArgument {
  public init?(argument: String) {
    guard Self.isAcceptable(argument) else { return nil }
    self.init(argument)
  }

  /// The URL as typed: a default holds no credentials to hide.
  public var defaultValueDescription: String { text }

  public static var expectation: String? {
    "an http:// or https:// URL with a host (and a port from 0 to 65535, if any)"
  }

  /// Credentials as `***@`, query values as `***`; in a text without a
  /// scheme (`me:pw@host`, not a URL), everything before the last `@` too.
  public static func shown(_ text: String) -> String {
    if !text.contains("://"), let at = text.lastIndex(of: "@") { return "***" + text[at...] }
    return ServerURL(text).redacted
  }

  /// Whether `text` can be a server URL: a host after any credentials
  /// (`https://me:pw@` has none, as the request would find), and a port, if
  /// given, that a socket can have.
  static func isAcceptable(_ text: String) -> Bool {
    let lowered = text.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
      let host = ServerURL(text).host, !host.isEmpty, hasValidPort(text)
    else {
      return false
    }
    return text.unicodeScalars.allSatisfy { (0x21..<0x7F).contains($0.value) }
  }

  private static func hasValidPort(_ text: String) -> Bool {
    guard let schemeEnd = text.firstRange(of: "://") else { return false }
    let rest = text[schemeEnd.upperBound...]
    var authority = rest.prefix { !"/?#".contains($0) }
    if let at = authority.lastIndex(of: "@") {
      authority = authority[authority.index(after: at)...]
    }
    let afterHost =
      authority.lastIndex(of: "]").map { authority[authority.index(after: $0)...] }
      ?? authority
    guard let colon = afterHost.lastIndex(of: ":") else { return true }
    let port = afterHost[afterHost.index(after: colon)...]
    guard !port.isEmpty else { return true }
    return port.count <= 5 && port.allSatisfy { $0.isASCII && $0.isNumber }
      && Int(port)! <= 65535
  }
}

/// `--method post|get`, in any case.
extension HTTPRequest.Method: ExpressibleByArgument {
  public init?(argument: String) {
    guard let method = Self(rawValue: argument.uppercased()) else { return nil }
    self = method
  }
  public var defaultValueDescription: String { rawValue.lowercased() }
  public static var allValueStrings: [String] { ["post", "get"] }
}

/// `--os`: one of the vendor's push services, in any case.
extension OperatingSystem: ExpressibleByArgument {}

/// A positive number of seconds, fractions allowed (`--timeout 1.5`).
struct Seconds: ExpressibleByArgument, Comparable {
  var duration: Duration

  init(_ seconds: Double) {
    duration = .milliseconds(Int64((seconds * 1000).rounded()))
  }

  init?(argument: String) {
    guard let seconds = Double(argument: argument), seconds > 0 else { return nil }
    self.init(seconds)
  }

  var defaultValueDescription: String { duration.decimal(in: .seconds, fractionDigits: 3) }

  static var expectation: String? { "a number of seconds above 0" }

  static func < (lhs: Seconds, rhs: Seconds) -> Bool { lhs.duration < rhs.duration }
}

/// `--color auto|always|never`.
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
  case auto, always, never
}
