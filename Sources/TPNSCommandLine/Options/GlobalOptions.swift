import ArgumentParsing
import TPNSKit

/// The settings a `tpns` command runs with, resolved from its option groups.
struct GlobalOptions: Sendable {
  var server: String
  var storePath: String
  var json = false
  var quiet = false
  var verbose = false
  var timeout: Duration = .seconds(30)
  var method: HTTPRequest.Method = .post
  var caCertificate: String?
  var showToken = false
  var requireHTTPS = false
  var allowTokenInURL = false
  var color = ColorChoice.auto
  var legacy = false

  var serverURL: ServerURL { ServerURL(server) }
  /// The server as output shows it: credentials as `***@`, query values as `***`.
  var shownServer: String { serverURL.redacted }
  var serverKey: String { serverURL.storeKey }

  func show(_ token: String) -> String {
    showToken ? token : TokenMask.shown(token)
  }
}
