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

  /// The options of a command that talks to the server.
  static let sending: [Option] = [
    serverOption, storeOption, jsonOption, quietOption, verboseOption, timeoutOption,
    methodOption, caCertificateOption, showTokenOption,
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
  /// `usesServer` false (`list`), `TPNS_SERVER` is not looked at.
  init(_ values: ParsedValues, environment: [String: String], usesServer: Bool = true) throws {
    server =
      values.value("server") ?? environment["TPNS_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
      ?? Self.defaultServer
    guard !usesServer || Self.isServerURL(server) else {
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
    verbose = values.flag("verbose")
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
