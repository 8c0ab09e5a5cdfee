import Glibc

/// A server URL as text, taken apart as far as tpns needs: credentials and query
/// (which output hides), host (a loopback server is reached directly and may be
/// `http://`). Nothing is decoded or normalised: `text` is sent as given.
///
///     ServerURL("http://me:pw@push.example/tpns?key=k").redacted
///     // "http://***@push.example/tpns?key=***"
public struct ServerURL: Sendable, Hashable, CustomStringConvertible {
  /// The URL as given.
  public let text: String

  /// `text` as a URL.
  public init(_ text: String) {
    self.text = text
  }

  /// `scheme://userinfo@hostport`, then the rest (path, query, fragment).
  private struct Parts {
    var scheme: Substring
    var userinfo: Substring?
    var hostPort: Substring
    var rest: Substring
  }

  /// The URL's parts; nil without `://`.
  private var parts: Parts? {
    guard let separator = text.firstRange(of: "://") else { return nil }
    let afterScheme = text[separator.upperBound...]
    let authorityEnd = afterScheme.firstIndex { "/?#".contains($0) } ?? afterScheme.endIndex
    let authority = afterScheme[..<authorityEnd]
    let at = authority.lastIndex(of: "@")
    return Parts(
      scheme: text[..<separator.lowerBound],
      userinfo: at.map { authority[..<$0] },
      hostPort: at.map { authority[authority.index(after: $0)...] } ?? authority,
      rest: afterScheme[authorityEnd...]
    )
  }

  /// The host, lower-cased, without the brackets of an IPv6 address, or nil.
  public var host: String? {
    guard let hostPort = parts?.hostPort else { return nil }
    if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
      return hostPort[hostPort.index(after: hostPort.startIndex)..<close].lowercased()
    }
    return String(hostPort.prefix { $0 != ":" }).lowercased()
  }

  /// The service's legacy path, where firmware sends the older commands: the path's
  /// last `/tpns` (or the whole path) becomes `/apns/apns.php`.
  ///
  ///     ServerURL("https://push.iotcplatform.com:7380/tpns").legacyService
  ///     // "https://push.iotcplatform.com:7380/apns/apns.php"
  public var legacyService: String {
    guard let parts else { return text }
    let authority = parts.userinfo.map { "\($0)@\(parts.hostPort)" } ?? String(parts.hostPort)
    let pathEnd = parts.rest.firstIndex { "?#".contains($0) } ?? parts.rest.endIndex
    var path = parts.rest[..<pathEnd]
    path = path.hasSuffix("/tpns") ? path.dropLast("/tpns".count) : ""
    return "\(parts.scheme)://\(authority)\(path)/apns/apns.php\(parts.rest[pathEnd...])"
  }

  /// The server's key in the store: the URL without credentials, fragment or default
  /// port, scheme and host in lower case (a final dot dropped, `localhost` as
  /// `127.0.0.1`), an empty path as `/`; path and query as given.
  ///
  ///     ServerURL("HTTP://LocalHost:80/tpns").storeKey  // "http://127.0.0.1/tpns"
  public var storeKey: String {
    guard let parts else { return text }
    let scheme = parts.scheme.lowercased()
    var host: Substring
    var port: Substring?
    if parts.hostPort.hasPrefix("["), let close = parts.hostPort.firstIndex(of: "]") {
      host = parts.hostPort[...close]
      let after = parts.hostPort[parts.hostPort.index(after: close)...]
      port = after.hasPrefix(":") ? after.dropFirst() : nil
    } else if let colon = parts.hostPort.lastIndex(of: ":") {
      host = parts.hostPort[..<colon]
      port = parts.hostPort[parts.hostPort.index(after: colon)...]
    } else {
      host = parts.hostPort
    }
    if host.count > 1, host.hasSuffix(".") { host = host.dropLast() }
    let bare = host.hasPrefix("[") ? host.dropFirst().dropLast() : host
    // `localhost` is 127.0.0.1, as libcurl resolves it first; any other
    // loopback address may be another socket.
    let name = bare.lowercased() == "localhost" ? "127.0.0.1" : host.lowercased()
    var portText = port.map(String.init) ?? ""
    if let number = Int(portText), number >= 0 { portText = String(number) }
    let defaultPort = ["http": "80", "https": "443"][scheme]
    let shownPort = portText.isEmpty || portText == defaultPort ? "" : ":" + portText
    let beforeFragment = parts.rest.prefix { $0 != "#" }
    let path = beforeFragment.prefix { $0 != "?" }
    return "\(scheme)://\(name)\(shownPort)\(path.isEmpty ? "/" : path)"
      + beforeFragment[path.endIndex...]
  }

  /// The URL as output shows it: credentials as `***@`, every query value as `***`.
  public var redacted: String {
    redacted { _, _ in "***" }
  }

  /// The URL with credentials as `***@` and each query value as `value` makes it of
  /// the parameter's name (empty without `=`) and value.
  public func redacted(queryValue value: (Substring, Substring) -> String) -> String {
    guard let parts else { return text }
    let start = "\(parts.scheme)://" + (parts.userinfo == nil ? "" : "***@") + parts.hostPort
    let hash = parts.rest.firstIndex(of: "#") ?? parts.rest.endIndex
    let fragment = parts.rest[hash...]
    guard let questionMark = parts.rest[..<hash].firstIndex(of: "?") else {
      return start + parts.rest
    }
    let query = parts.rest[parts.rest.index(after: questionMark)..<hash]
      .split(separator: "&", omittingEmptySubsequences: false)
      .map { parameter -> String in
        // A bare value (`?k3y`) is a value too; an empty parameter (`&&`) stays empty.
        guard let equals = parameter.firstIndex(of: "=") else {
          return parameter.isEmpty ? "" : value("", parameter)
        }
        let name = parameter[..<equals]
        return name + "=" + value(name, parameter[parameter.index(after: equals)...])
      }
      .joined(separator: "&")
    return start + parts.rest[...questionMark] + query + fragment
  }

  /// Whether the host is this machine: `localhost`, 127.0.0.0/8 or `::1` (also
  /// IPv4-mapped). Any other spelling is not.
  public var isLoopback: Bool {
    guard let host else { return false }
    if host == "localhost" { return true }
    var v4 = in_addr()
    if inet_pton(AF_INET, host, &v4) == 1 {
      return UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
    return withUnsafeBytes(of: &v6) { bytes in
      let loopback = bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
      let mapped =
        bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        && bytes[12] == 127
      return loopback || mapped
    }
  }

  /// Whether what is sent here crosses the network unencrypted (`http://`, not loopback).
  public var isCleartextOverNetwork: Bool {
    parts?.scheme.lowercased() == "http" && !isLoopback
  }

  public var description: String { redacted }
}
