import Glibc

/// Who the emulator answers: clients on this machine (or, with a `--host` open to the
/// network, on it) and its own dashboard page, never another site's page, which could
/// otherwise reset the registry, arm faults, register its own token over the user's
/// udid, or, through DNS rebinding, read every token. docs/EMULATOR.md ("Web pages are
/// refused") gives the rules; the reasons it does not give:
///
/// - Any IP address is served as `Host`: only the emulator itself could be one a page
///   reaches it at, and this keeps `--host 0.0.0.0` usable from other machines.
/// - `Sec-Fetch-Site` catches what `Origin` cannot: an `<img>` or a link sends a GET
///   with no `Origin`, and a GET of `/tpns` runs its command.
/// - The dashboard (``DashboardPage``) is a GET typed in the address bar
///   (`Sec-Fetch-Site: none`); it reads same-origin, and acts through `cors` requests
///   that carry its own `Origin`. A foreign page can neither read it, press its
///   buttons, nor frame it (`frame-ancestors 'none'`).
/// - Native clients (`tpns`, curl, scripts) send no `Origin` nor `Sec-Fetch-Site` and a
///   `Host` that names the machine: none of this costs them anything.
///
///     AccessPolicy(listeningHost: "127.0.0.1").refusal(of: request)  // nil: served
struct AccessPolicy: Sendable {
  /// `--host`, lower-cased: also served as a `Host`.
  let listeningHost: String
  /// `--allow-browser`.
  let allowsBrowser: Bool
  /// What the server's own pages' `Origin` starts with: `http://` or `https://`.
  let originPrefix: String

  init(listeningHost: String, allowsBrowser: Bool = false, scheme: String = "http") {
    self.listeningHost = listeningHost.lowercased()
    self.allowsBrowser = allowsBrowser
    originPrefix = scheme + "://"
  }

  /// Why `request` is refused (421, 403), or nil when it is served.
  func refusal(of request: IncomingRequest) -> RequestError? {
    if let host = request.host {
      switch hostKind(host) {
      case .served:
        break
      case .unspecified:
        return RequestError(
          421,
          "the Host header '\(Printable(host))' is an unspecified address (0.0.0.0 and [::] "
            + "mean any address; the server was not started with it as --host): use "
            + "127.0.0.1 or localhost; a web page must not reach the registry through it")
      case .foreign:
        return RequestError(
          421,
          "the Host header '\(Printable(host))' does not name this server (use localhost, an "
            + "IP address or the --host name): a web page must not reach the registry through "
            + "DNS rebinding")
      }
    }
    if let origin = request.origin,
      origin.lowercased() != originPrefix + (request.host ?? "").lowercased()
    {
      return Self.fromWebPage("Origin '\(Printable(origin))'")
    }
    if let site = request.fetchSite, !["none", "same-origin"].contains(site.lowercased()) {
      return Self.fromWebPage("Sec-Fetch-Site: \(Printable(site))")
    }
    if !allowsBrowser, Router.isServicePath(request.path),
      let evidence = Self.browserEvidence(request)
    {
      return RequestError(
        403,
        "a browser's own request to \(Printable(request.path)) is refused (\(evidence)): a link, "
          + "a form or an image must not run a command; use tpns, curl or another client "
          + "that is not a browser, or start tpns-server with --allow-browser")
    }
    return nil
  }

  /// The header that shows `request` is one a browser made by itself, or nil.
  private static func browserEvidence(_ request: IncomingRequest) -> String? {
    if let mode = request.fetchMode, ["navigate", "no-cors"].contains(mode.lowercased()) {
      return "Sec-Fetch-Mode: \(Printable(mode))"
    }
    if let site = request.fetchSite, site.lowercased() == "none" {
      return "Sec-Fetch-Site: \(Printable(site))"
    }
    return nil
  }

  private static func fromWebPage(_ evidence: String) -> RequestError {
    RequestError(
      403,
      "requests from web pages are refused (\(evidence)): the registry holds push tokens; "
        + "use tpns, curl or another client that is not a browser")
  }

  enum HostKind: Equatable {
    case served, unspecified, foreign
  }

  /// What a `Host` header (`name`, `name:port`, `[v6]`, `[v6]:port`) names: this
  /// machine (`localhost`, an IP address or ``listeningHost``), an unspecified address
  /// (`0.0.0.0`, `[::]`) other than ``listeningHost``, or anything else (or a malformed
  /// header).
  func hostKind(_ host: String) -> HostKind {
    var name = host.utf8[...]
    var port = name[name.endIndex...]
    let isBracketed = name.first == UInt8(ascii: "[")
    if isBracketed {
      guard let close = name.firstIndex(of: UInt8(ascii: "]")) else { return .foreign }
      port = name[name.index(after: close)...]
      name = name[name.index(after: name.startIndex)..<close]
    } else if let colon = name.firstIndex(of: UInt8(ascii: ":")) {
      port = name[colon...]
      name = name[..<colon]
    }
    guard !name.isEmpty,
      port.isEmpty
        || (port.count > 1 && port.first == UInt8(ascii: ":")
          && port.dropFirst().allSatisfy { (0x30...0x39).contains($0) })
    else { return .foreign }
    let text = String(decoding: name, as: UTF8.self)
    var address = in6_addr()
    let isAddress = inet_pton(isBracketed ? AF_INET6 : AF_INET, text, &address) == 1
    // `0.0.0.0`, `::` or `::ffff:0.0.0.0`: "any address", which Linux routes to loopback.
    let isUnspecified = withUnsafeBytes(of: address) { bytes in
      bytes[0..<10].allSatisfy { $0 == 0 } && bytes[12..<16].allSatisfy { $0 == 0 }
        && (bytes[10..<12].allSatisfy { $0 == 0 } || bytes[10..<12].allSatisfy { $0 == 0xFF })
    }
    if isAddress && !isUnspecified { return .served }
    let lowered = text.lowercased()
    if lowered == listeningHost { return .served }
    if isAddress { return .unspecified }
    return lowered == "localhost" ? .served : .foreign
  }
}
