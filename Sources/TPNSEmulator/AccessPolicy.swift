#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Who the emulator answers: clients on this machine (or, with a `--host` open to the
/// network, on it), and its own dashboard page, never another site's page. A page the
/// user visits can send requests to 127.0.0.1: a form or `fetch` could reset the
/// registry, arm faults or register its own token over the user's udid, and a page on a
/// name it rebinds to 127.0.0.1 (DNS rebinding) could read every token in
/// `/_emulator/registry` or `/_emulator/stream`. Native clients (`tpns`, curl, libcurl,
/// scripts) send no `Origin` nor `Sec-Fetch-Site` and a `Host` that names the machine,
/// so none of this costs them anything.
///
/// The dashboard (`/`, see ``DashboardPage``) is served under the same rules: the page
/// itself is a GET typed in the address bar (`Sec-Fetch-Site: none`); its reads and its
/// stream are same-origin; its actions are POSTs (DELETE to disarm) that carry its own
/// `Origin`. A foreign page can neither read through it (the browser keeps the answers
/// of cross-origin reads from it, and the emulator refuses them anyway) nor press its
/// buttons (its POSTs carry its own `Origin`, refused), nor frame it
/// (`frame-ancestors 'none'`, and a framed GET is cross-site).
///
/// - `Host` must name this machine: `localhost`, an IP address, or the `--host` given;
///   else 421, for the page, the JSON and the stream alike. A rebound page's requests
///   carry its own name. Any port is served: a forwarded port (`docker run -p
///   8080:7380`) changes it, and a page cannot pick it to reach the emulator. Any IP
///   address is served: a page at an address is served from it, so only the emulator
///   itself could be one that reaches the emulator; this keeps `--host 0.0.0.0` usable
///   by address from other machines. A request with no `Host` (HTTP/1.0) is served:
///   every browser sends one.
/// - `Origin`, which browsers send on every POST and cross-origin `fetch`, must be the
///   request's own (`http://` and its `Host`: the dashboard, or a user at the console
///   of one of its JSON answers); any other, `null` included, is 403.
/// - `Sec-Fetch-Site`, when sent, must be `none` (an address typed or bookmarked) or
///   `same-origin`; `cross-site` and `same-site` (a page on another port of localhost
///   is the same site) are 403. It catches what `Origin` cannot: an `<img>` or a link
///   sends a GET with no `Origin`, and a GET of `/tpns` runs its command.
///
///     AccessPolicy(listeningHost: "127.0.0.1").refusal(of: request)  // nil: served
struct AccessPolicy: Sendable {
  /// The address given to listen on (`--host`), lower-cased: also served as a `Host`.
  let listeningHost: String

  init(listeningHost: String) {
    self.listeningHost = listeningHost.lowercased()
  }

  /// Why `request` is refused (421, 403), or nil when it is served.
  func refusal(of request: IncomingRequest) -> RequestError? {
    if let host = request.host, !isServed(host: host) {
      return RequestError(
        421,
        "the Host header '\(Printable(host))' does not name this server (use localhost, an IP "
          + "address or the --host name): a web page must not reach the registry through "
          + "DNS rebinding")
    }
    if let origin = request.origin,
      origin.lowercased() != "http://" + (request.host ?? "").lowercased()
    {
      return Self.fromWebPage("Origin '\(Printable(origin))'")
    }
    if let site = request.fetchSite, !["none", "same-origin"].contains(site.lowercased()) {
      return Self.fromWebPage("Sec-Fetch-Site: \(Printable(site))")
    }
    return nil
  }

  private static func fromWebPage(_ evidence: String) -> RequestError {
    RequestError(
      403,
      "requests from web pages are refused (\(evidence)): the registry holds push tokens; "
        + "use tpns, curl or another client that is not a browser")
  }

  /// Whether a `Host` header (`name`, `name:port`, `[v6]`, `[v6]:port`) names this
  /// machine: `localhost`, an IP address, or ``listeningHost``.
  func isServed(host: String) -> Bool {
    // On the header's bytes, the address parsed from a copy on the stack: made a
    // `String` and parsed through one, it cost 1,500 instructions of every request
    // (callgrind).
    var host = host
    host.makeContiguousUTF8()  // a no-op for the headers the server reads
    return host.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      guard let (start, end, isBracketed) = Self.name(in: bytes) else { return false }
      if Self.isAddress(bytes[start..<end], isIPv6: isBracketed) { return true }
      let lowered = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
      return lowered == "localhost" || lowered == listeningHost
    } ?? false
  }

  /// Whether `name` is an IPv4 address (an IPv6 one when `isIPv6`), as `inet_pton`
  /// reads it.
  private static func isAddress(_ name: Slice<UnsafeBufferPointer<UInt8>>, isIPv6: Bool) -> Bool {
    // The longest textual IPv6 address is 45 bytes (INET6_ADDRSTRLEN with its NUL).
    guard name.count < 64 else { return false }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { text in
      for (offset, byte) in name.enumerated() { text[offset] = CChar(bitPattern: byte) }
      text[name.count] = 0
      var address = in6_addr()
      return inet_pton(isIPv6 ? AF_INET6 : AF_INET, text.baseAddress!, &address) == 1
    }
  }

  /// Where the name is in a `Host` header's `bytes`, without its port and brackets,
  /// and whether it was bracketed (an IPv6 address); nil when the header is malformed
  /// (an empty name, a port that is not digits).
  private static func name(in bytes: UnsafeBufferPointer<UInt8>) -> (
    start: Int, end: Int, isBracketed: Bool
  )? {
    var start = 0
    let end: Int
    var rest: Int
    let isBracketed = bytes.first == UInt8(ascii: "[")
    if isBracketed {
      start = 1
      guard let close = bytes[start...].firstIndex(of: UInt8(ascii: "]")) else { return nil }
      end = close
      rest = close + 1
    } else {
      end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
      rest = end
    }
    if rest < bytes.count {
      guard bytes[rest] == UInt8(ascii: ":") else { return nil }
      rest += 1
      guard rest < bytes.count else { return nil }
      while rest < bytes.count {
        guard (0x30...0x39).contains(bytes[rest]) else { return nil }
        rest += 1
      }
    }
    guard start < end else { return nil }
    return (start, end, isBracketed)
  }
}
