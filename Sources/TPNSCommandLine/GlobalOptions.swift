import ArgumentParsing
import TPNSKit

/// The options every `tpns` command takes: where the server and the store
/// are, how to talk to the server, and how to print.
struct GlobalOptions: Sendable {
  /// The real service, as the quickstart used it.
  static let defaultServer = "http://push.iotcplatform.com/tpns"

  var server: String
  var storePath: String
  var json: Bool
  var quiet: Bool
  var timeout: Duration
  var method: HTTPRequest.Method
  var caCertificate: String?
  var showToken: Bool

  /// The declarations, shared by every subcommand's configuration.
  static let options: [Option] = [
    .option(
      "server", valueName: "url",
      help: "The TPNS URL (env TPNS_SERVER; default \(defaultServer)).",
      validate: { isServerURL($0) }),
    .option(
      "store", valueName: "path",
      help: "The state file (env TPNS_STORE; default $XDG_CONFIG_HOME/tpns/state.plist).",
      validate: { !$0.isEmpty }),
    .flag("json", help: "Print JSON instead of text (one document; watch: JSON lines)."),
    .flag("quiet", short: "q", help: "Print nothing but errors."),
    .option(
      "timeout", valueName: "seconds",
      help: "Give up after this long: the whole command, retries, waits and lock waits included.",
      defaultValue: "30",
      validate: { Double($0).map { $0 > 0 && $0 <= 3600 } ?? false }),
    .option(
      "method", valueName: "method", help: "post (a form body) or get (a query).",
      defaultValue: "post", validate: { ["post", "get"].contains($0.lowercased()) }),
    .option(
      "cacert", valueName: "file", help: "Trust the CA certificates in this PEM file.",
      validate: { !$0.isEmpty }),
    .flag("show-token", help: "Print tokens in full (they are masked by default)."),
  ]

  /// Whether `text` can be a server URL: http or https, a host, and no white
  /// space, control or non-ASCII characters (which libcurl would send as is).
  static func isServerURL(_ text: String) -> Bool {
    let lowered = text.lowercased()
    guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else {
      return false
    }
    let host = text.dropFirst(scheme.count).prefix { $0 != "/" && $0 != ":" && $0 != "?" }
    return !host.isEmpty && text.unicodeScalars.allSatisfy { (0x21..<0x7F).contains($0.value) }
  }

  /// Reads the options, then the environment, then the defaults.
  init(_ values: ParsedValues, environment: [String: String]) throws {
    server =
      values.value("server") ?? environment["TPNS_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
      ?? Self.defaultServer
    guard Self.isServerURL(server) else {
      throw ValidationError(
        "TPNS_SERVER must be an http:// or https:// URL, got \(server.debugDescription)")
    }
    guard let path = values.value("store") ?? StateStore.defaultPath(environment: environment)
    else {
      throw ValidationError("No store path: set --store, TPNS_STORE or HOME")
    }
    storePath = path
    json = values.flag("json")
    quiet = values.flag("quiet")
    let seconds = values.value("timeout", as: Double.self) ?? 30
    timeout = .milliseconds(Int64((seconds * 1000).rounded()))
    method = values.value("method")?.lowercased() == "get" ? .get : .post
    caCertificate = values.value("cacert")
    showToken = values.flag("show-token")
  }

  /// A token as output shows it: masked unless `--show-token`.
  func show(_ token: String) -> String {
    showToken || token.count <= 6 ? token : "…" + token.suffix(6)
  }
}
