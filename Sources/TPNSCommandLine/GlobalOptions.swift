import ArgumentParsing
import TPNSKit

#if canImport(Glibc)
  import Glibc
#endif

/// The options `tpns` commands share: where the server and the store are,
/// how to talk to the server, and how to print. Each command declares those
/// it uses (``sending``, ``listing``, ``reporting``).
struct GlobalOptions: Sendable {
  /// The real service, as the quickstart used it.
  static let defaultServer = "http://push.iotcplatform.com/tpns"

  var server: String
  var storePath: String
  var json: Bool
  var quiet: Bool
  var verbose: Bool
  var timeout: Duration
  var method: HTTPRequest.Method
  var caCertificate: String?
  var showToken: Bool
  /// `--require-https` or `TPNS_REQUIRE_HTTPS=1`: an http:// server off this machine is refused.
  var requireHTTPS: Bool
  /// `--allow-token-in-url`: `--method get` may put the token in the URL.
  var allowTokenInURL: Bool

  /// What a command sends, which decides what is checked about the server
  /// and the method before anything is stored or sent.
  enum Traffic {
    /// Nothing (`list`, `status`).
    case none
    /// Requests without the token (`event`).
    case withoutToken
    /// Requests that may carry the token: every command that reconciles may
    /// send `cmd=client`, and an iOS phone's udid (in `mapsync`,
    /// `unreg_mapping`) is its token.
    case token
  }

  static let serverOption = Option.option(
    "server", valueName: "url",
    help: "The TPNS URL (env TPNS_SERVER; default \(defaultServer)).",
    validate: { isServerURL($0) })
  static let storeOption = Option.option(
    "store", valueName: "path",
    help:
      "The state file (env TPNS_STORE; default $XDG_CONFIG_HOME/tpns/state.plist, "
      + "or ~/.config/tpns/state.plist without XDG_CONFIG_HOME).",
    validate: { !$0.isEmpty })
  static let jsonOption = Option.flag(
    "json", help: "Print JSON instead of text (one document; watch: JSON lines).")
  static let quietOption = Option.flag("quiet", short: "q", help: "Print nothing but errors.")
  static let verboseOption = Option.flag(
    "verbose", short: "v",
    help: "Print each HTTP request and its answer (status, time) on stderr, as curl -v does.")
  static let timeoutOption = Option.option(
    "timeout", valueName: "seconds",
    help: "Give up after this long: the whole command, retries, waits and lock waits included.",
    defaultValue: "30",
    validate: { Double($0).map { $0 > 0 && $0 <= 3600 } ?? false })
  static let methodOption = Option.option(
    "method", valueName: "method", help: "post (a form body) or get (a query).",
    defaultValue: "post", validate: { ["post", "get"].contains($0.lowercased()) })
  static let caCertificateOption = Option.option(
    "cacert", valueName: "file",
    help: "Trust only the CA certificates in this PEM file (not the system's as well).",
    validate: { !$0.isEmpty })
  static let showTokenOption = Option.flag(
    "show-token", help: "Print tokens in full (they are masked by default).")
  static let requireHTTPSOption = Option.flag(
    "require-https",
    help:
      "Refuse an http:// server that is not on this machine, over which the token would "
      + "travel unencrypted (env TPNS_REQUIRE_HTTPS=1).")
  static let allowTokenInURLOption = Option.flag(
    "allow-token-in-url",
    help:
      "Let --method get send the token in the URL, which proxies and access logs keep "
      + "(refused without it).")

  /// The options of a command that talks to the server without the token (`event`).
  static let sending: [Option] = [
    serverOption, storeOption, jsonOption, quietOption, verboseOption, timeoutOption,
    methodOption, requireHTTPSOption, caCertificateOption, showTokenOption,
  ]
  /// The options of a command that may send the token (every one that reconciles).
  static let sendingToken: [Option] = [
    serverOption, storeOption, jsonOption, quietOption, verboseOption, timeoutOption,
    methodOption, allowTokenInURLOption, requireHTTPSOption, caCertificateOption,
    showTokenOption,
  ]
  /// The options of `list`, which only reads the store.
  static let listing: [Option] = [
    storeOption, jsonOption,
    Option.flag("quiet", short: "q", help: "No notice on stderr when the list is empty."),
  ]
  /// The options of `status`, which reads the store about one server.
  static let reporting: [Option] = [serverOption, storeOption, jsonOption, showTokenOption]

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

  /// Reads the options, then the environment, then the defaults. With
  /// `usesServer` false (`list`), `TPNS_SERVER` is not looked at. What the
  /// command sends (`traffic`) is checked against `--require-https` and
  /// `--method get`: a refusal is a usage error, before anything is stored.
  init(
    _ values: ParsedValues, environment: [String: String], usesServer: Bool = true,
    traffic: Traffic = .token
  ) throws {
    server =
      values.value("server") ?? environment["TPNS_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
      ?? Self.defaultServer
    guard !usesServer || Self.isServerURL(server) else {
      throw ValidationError(
        "TPNS_SERVER must be an http:// or https:// URL, got "
          + ServerURL(server).redacted.debugDescription)
    }
    guard let path = values.value("store") ?? StateStore.defaultPath(environment: environment)
    else {
      throw ValidationError("No store path: set --store, TPNS_STORE or HOME")
    }
    storePath = path
    json = values.flag("json")
    quiet = values.flag("quiet")
    verbose = values.flag("verbose")
    let seconds = values.value("timeout", as: Double.self) ?? 30
    timeout = .milliseconds(Int64((seconds * 1000).rounded()))
    method = values.value("method")?.lowercased() == "get" ? .get : .post
    caCertificate = values.value("cacert")
    showToken = values.flag("show-token")
    allowTokenInURL = values.flag("allow-token-in-url")
    requireHTTPS = false
    guard traffic != .none else { return }
    let requiredByEnvironment = try Self.isOn(environment, "TPNS_REQUIRE_HTTPS")
    requireHTTPS = values.flag("require-https") || requiredByEnvironment
    if requireHTTPS, serverURL.isCleartextOverNetwork {
      throw ValidationError(
        "\(shownServer) is not https://, and --require-https (or TPNS_REQUIRE_HTTPS) refuses "
          + "an http:// server that is not on this machine: the token would cross the network "
          + "unencrypted")
    }
    if traffic == .token, method == .get, !allowTokenInURL {
      throw ValidationError(
        "--method get would put the push token in the URL, where proxies and access logs "
          + "keep it: use --method post (the default), or add --allow-token-in-url")
    }
  }

  /// Whether the variable `name` is set to 1, true, yes or on (0, false, no,
  /// off or empty: not); anything else is a usage error.
  static func isOn(_ environment: [String: String], _ name: String) throws -> Bool {
    guard let value = environment[name] else { return false }
    if ["1", "true", "yes", "on"].contains(value.lowercased()) { return true }
    if ["", "0", "false", "no", "off"].contains(value.lowercased()) { return false }
    throw ValidationError("\(name) must be 1 or 0, got \(value.debugDescription)")
  }

  /// The server URL taken apart (``ServerURL``).
  var serverURL: ServerURL { ServerURL(server) }

  /// The server as output shows it: credentials as `***@`, query values as `***`.
  var shownServer: String { serverURL.redacted }

  /// What the store records the server under: the URL without its
  /// credentials, so that a password never reaches the store file.
  var serverKey: String { serverURL.withoutUserinfo }

  /// A token as output shows it: masked unless `--show-token`.
  func show(_ token: String) -> String {
    showToken ? token : TokenMask.shown(token)
  }

  /// Why the `--cacert` file cannot be used, or nil: a file that cannot be
  /// read is a bad argument, found before anything is stored or sent (libcurl
  /// would only say later that TLS failed).
  func caCertificateProblem() -> String? {
    guard let path = caCertificate else { return nil }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      return "cannot read the CA certificate file \(path): \(String(cString: strerror(errno)))"
    }
    defer { close(descriptor) }
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      return "cannot read the CA certificate file \(path): it is a directory"
    }
    return nil
  }
}
