import ArgumentParsing
import TPNSKit

// Each shared option is declared once, in the group that owns it; a command
// includes the groups it uses (`@OptionGroup`), so that `list` offers no
// network options and `event` no `--allow-token-in-url`.

/// `--server` (env `TPNS_SERVER`).
struct ServerLocation: ParsableArguments {
  static let realService = ServerURL("https://push.iotcplatform.com:7380/tpns")
  /// The quickstart's default, in clear: a store may hold acknowledgements
  /// there, which `status` points out.
  static let formerDefault = ServerURL("http://push.iotcplatform.com/tpns")

  @Option(help: ArgumentHelp("The TPNS URL.", valueName: "url"), environment: "TPNS_SERVER")
  var server = Self.realService
}

/// `--store` (env `TPNS_STORE`, else under `XDG_CONFIG_HOME` or `HOME`).
struct StoreLocation: ParsableArguments {
  @Option(
    name: .customLong("store"), help: ArgumentHelp("The state file.", valueName: "path"),
    environment: "TPNS_STORE",
    defaultDescription:
      "$XDG_CONFIG_HOME/tpns/state.plist, or ~/.config/tpns/state.plist without "
      + "XDG_CONFIG_HOME")
  var path: FilePath?
  @EnvironmentVariable("XDG_CONFIG_HOME", help: "Where the store is kept: its tpns directory.")
  var configHome: String?
  @EnvironmentVariable("HOME", help: "Where the store is kept without XDG_CONFIG_HOME.")
  var home: String?

  var resolvedPath: String? {
    path?.string
      ?? Store.defaultPath(
        environment: ["XDG_CONFIG_HOME": configHome, "HOME": home].compactMapValues { $0 })
  }

  func validate() throws {
    guard resolvedPath != nil else {
      throw ValidationError("No store path: set --store, TPNS_STORE or HOME")
    }
  }
}

struct JSONOutput: ParsableArguments {
  @Flag(help: "Print JSON instead of text (one document; watch: JSON lines).") var json = false
}

struct QuietOutput: ParsableArguments {
  @Flag(
    name: .shortAndLong,
    help: "Print nothing but errors (list: not even the notice that it is empty).")
  var quiet = false
}

struct ColorOption: ParsableArguments {
  @Option(
    name: .customLong("color"),
    help: ArgumentHelp(
      "Colour the output: auto (on a terminal, unless NO_COLOR is set), always or never.",
      valueName: "when"))
  var choice = ColorChoice.auto
}

struct TokenDisplay: ParsableArguments {
  @Flag(help: "Print tokens in full (they are masked by default).") var showToken = false
}

/// How to talk to the server: `--timeout`, `--method`, `--require-https`, `--cacert`.
struct TransferOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Give up after this long: the whole command, retries, waits and lock waits included "
        + "(up to 3600).", valueName: "seconds"),
    validate: { $0 <= Seconds(3600) }, expectation: "a number of seconds above 0, up to 3600")
  var timeout = Seconds(30)
  @Option(help: ArgumentHelp("post (a form body) or get (a query).", valueName: "method"))
  var method = HTTPRequest.Method.post
  @Flag(
    name: .customLong("require-https"),
    help: ArgumentHelp(
      "Refuse an http:// server that is not on this machine, over which the token would "
        + "travel unencrypted."),
    environment: "TPNS_REQUIRE_HTTPS")
  var requireHTTPS = false
  @Option(
    name: .customLong("cacert"),
    help: ArgumentHelp(
      "Trust only the CA certificates in this PEM file (not the system's as well).",
      valueName: "file"), environment: "TPNS_CACERT")
  var caCertificate: FilePath?

  func checkCleartext(to server: ServerURL) throws {
    if requireHTTPS, server.isCleartextOverNetwork {
      throw ValidationError(
        "\(server.redacted) is not https://, and --require-https (or "
          + "TPNS_REQUIRE_HTTPS) refuses an http:// server that is not on this machine: the "
          + "token would cross the network unencrypted")
    }
  }
}

/// `--allow-token-in-url`, for the commands that may send the token.
struct TokenInURLPermission: ParsableArguments {
  @Flag(
    name: .customLong("allow-token-in-url"),
    help: ArgumentHelp(
      "Let --method get send the token in the URL, which proxies and access logs keep "
        + "(refused without it)."))
  var allowTokenInURL = false

  func check(_ method: HTTPRequest.Method) throws {
    if method == .get, !allowTokenInURL {
      throw ValidationError(
        "--method get would put the push token in the URL, where proxies and access logs "
          + "keep it: use --method post (the default), or add --allow-token-in-url")
    }
  }
}

/// The options of a command that talks to the server without the token (`event`).
struct SendingOptions: ParsableArguments {
  @OptionGroup var location: ServerLocation
  @OptionGroup var store: StoreLocation
  @OptionGroup var output: JSONOutput
  @OptionGroup var quietness: QuietOutput
  /// Here, in the one group of the commands that print lines (not `ui`).
  @Flag(
    name: .shortAndLong,
    help: "Print each HTTP request and its answer (status, time) on stderr, as curl -v does.")
  var verbose = false
  @OptionGroup var transfer: TransferOptions
  @OptionGroup var display: TokenDisplay
  @OptionGroup var color: ColorOption

  func validate() throws {
    try transfer.checkCleartext(to: location.server)
  }

  var resolved: GlobalOptions {
    GlobalOptions(
      server: location.server.text, storePath: store.resolvedPath ?? "", json: output.json,
      quiet: quietness.quiet, verbose: verbose, timeout: transfer.timeout.duration,
      method: transfer.method, caCertificate: transfer.caCertificate?.string,
      showToken: display.showToken, requireHTTPS: transfer.requireHTTPS,
      color: color.choice)
  }
}

/// The options of a command that may send the token: every one that
/// reconciles (`cmd=client`; an iOS phone's udid is its token).
struct TokenSendingOptions: ParsableArguments {
  @OptionGroup var sending: SendingOptions
  @OptionGroup var permission: TokenInURLPermission

  func validate() throws {
    try permission.check(sending.transfer.method)
  }

  var resolved: GlobalOptions {
    var options = sending.resolved
    options.allowTokenInURL = permission.allowTokenInURL
    return options
  }
}

/// The options of `ui`: those of ``TokenSendingOptions`` but `--json`,
/// `--quiet` and `--verbose` (lines would break into the screen).
struct InteractiveOptions: ParsableArguments {
  @OptionGroup var location: ServerLocation
  @OptionGroup var store: StoreLocation
  @OptionGroup var transfer: TransferOptions
  @OptionGroup var display: TokenDisplay
  @OptionGroup var color: ColorOption
  @OptionGroup var permission: TokenInURLPermission

  func validate() throws {
    try transfer.checkCleartext(to: location.server)
    try permission.check(transfer.method)
  }

  var resolved: GlobalOptions {
    GlobalOptions(
      server: location.server.text, storePath: store.resolvedPath ?? "",
      timeout: transfer.timeout.duration, method: transfer.method,
      caCertificate: transfer.caCertificate?.string, showToken: display.showToken,
      requireHTTPS: transfer.requireHTTPS, allowTokenInURL: permission.allowTokenInURL,
      color: color.choice)
  }
}

/// The options of `list`, which only reads the store.
struct ListingOptions: ParsableArguments {
  @OptionGroup var store: StoreLocation
  @OptionGroup var output: JSONOutput
  @OptionGroup var quietness: QuietOutput
  @OptionGroup var color: ColorOption

  var resolved: GlobalOptions {
    // `list` talks to no server: its document names the one TPNS_SERVER would
    // choose, as the other commands' would (nothing is refused over it).
    let environment = ProcessEnvironment.current["TPNS_SERVER"].flatMap(ServerURL.init(argument:))
    return GlobalOptions(
      server: (environment ?? ServerLocation.realService).text, storePath: store.resolvedPath ?? "",
      json: output.json, quiet: quietness.quiet, color: color.choice)
  }
}

/// The options of `status`, which reads the store about one server.
struct ReportingOptions: ParsableArguments {
  @OptionGroup var location: ServerLocation
  @OptionGroup var store: StoreLocation
  @OptionGroup var output: JSONOutput
  @OptionGroup var display: TokenDisplay
  @OptionGroup var color: ColorOption

  var resolved: GlobalOptions {
    GlobalOptions(
      server: location.server.text, storePath: store.resolvedPath ?? "", json: output.json,
      showToken: display.showToken, color: color.choice)
  }
}
