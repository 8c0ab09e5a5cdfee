/// The dashboard at `/`: one HTML page, its style sheet and its script, embedded in the
/// binary by SwiftPM from `dashboard.html`, `dashboard.css` and `dashboard.js` beside
/// this file (`.embedInCode` in Package.swift: no CDN, it works offline). The page reads the `/_emulator/`
/// endpoints, listens to `/_emulator/stream`, and acts through POSTs that carry its own
/// `Origin` (see ``AccessPolicy``).
///
/// Each answer forbids inline scripts and framing (`Content-Security-Policy`), so that a
/// value from the registry can never run as code nor the page be clicked through from
/// another site's frame; the script itself writes registry data as text only.
///
///     DashboardPage.response(to: request)  // nil: not a dashboard path
enum DashboardPage {
  /// What each dashboard path serves: content type and body.
  /// The page (a header with the connection status, the actions, and four tabs); the
  /// style sheet (system fonts, light and dark from `prefers-color-scheme`); the script
  /// (plain JavaScript, no library; registry data is only ever written with
  /// `textContent`, never parsed as HTML).
  static let assets: [String: (contentType: String, body: [UInt8])] = [
    "/": ("text/html; charset=utf-8", PackageResources.dashboard_html),
    "/dashboard.css": ("text/css; charset=utf-8", PackageResources.dashboard_css),
    "/dashboard.js": ("text/javascript; charset=utf-8", PackageResources.dashboard_js),
  ]

  /// Everything from this server only; nothing inline; no framing.
  static let contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

  /// The answer to a dashboard path (GET or HEAD; else 405); nil for any other path.
  static func response(to request: IncomingRequest) -> OutgoingResponse? {
    guard let asset = assets[request.path] else { return nil }
    guard request.method == "GET" || request.method == "HEAD" else {
      return .error(.methodNotAllowed(request.method, allowed: ["GET", "HEAD"]))
    }
    return OutgoingResponse(
      status: 200, contentType: asset.contentType,
      header: HTTPHeader(name: "Content-Security-Policy", value: contentSecurityPolicy),
      body: request.method == "HEAD" ? [] : asset.body)
  }
}
