/// The dashboard at `/`: `dashboard.html`, `.css` and `.js` beside this file, embedded
/// in the binary by SwiftPM (`.embedInCode`: no CDN, it works offline). The page reads
/// the `/_emulator/` endpoints, listens to `/_emulator/stream`, and acts through POSTs
/// that carry its own `Origin` (see ``AccessPolicy``). Each answer forbids inline
/// scripts and framing (`Content-Security-Policy`), so that a value from the registry
/// can never run as code nor the page be clicked through from another site's frame; the
/// script writes registry data with `textContent` only, never as HTML.
///
///     DashboardPage.response(to: request)  // nil: not a dashboard path
enum DashboardPage {
  /// What each dashboard path serves.
  static let assets: [String: (contentType: String, body: [UInt8])] = [
    "/": ("text/html; charset=utf-8", PackageResources.dashboard_html),
    "/dashboard.css": ("text/css; charset=utf-8", PackageResources.dashboard_css),
    "/dashboard.js": ("text/javascript; charset=utf-8", PackageResources.dashboard_js),
  ]

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
