import ArgumentParsing
import TPNSKit
import TPNSProtocol
import Testing

@testable import TPNSCommandLine

/// Every `tpns` command line parsed in process, without running anything:
/// what each command gets from its declarations, the environment and the
/// defaults, and which lines are usage errors (exit 64).
@Suite struct ParseTableTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"
  static let token = String(repeating: "ab", count: 32)
  /// What a test process's environment is reduced to.
  static let home = ["HOME": "/home/u"]

  static func command<T: ParsableCommand>(
    _ type: T.Type, _ arguments: [String], environment: [String: String] = home
  ) throws -> T {
    let outcome = try TPNS.parse(arguments, environment: environment)
    guard case .run(let command) = outcome else {
      throw ValidationError("not a command: \(outcome)")
    }
    return try #require(command as? T)
  }

  static func usageError(_ arguments: [String], environment: [String: String] = home)
    -> String?
  {
    do {
      _ = try TPNS.parse(arguments, environment: environment)
      return nil
    } catch let error as UsageError {
      return error.message
    } catch {
      return "\(error)"
    }
  }

  // MARK: The shared options

  @Test(
    "the server: --server, else TPNS_SERVER, else the real service",
    arguments: [
      ([], [:], "https://push.iotcplatform.com:7380/tpns"),
      ([], ["TPNS_SERVER": "http://e/tpns"], "http://e/tpns"),
      (["--server", "http://a/tpns"], ["TPNS_SERVER": ""], "http://a/tpns"),
      (["--server", "https://a/tpns"], ["TPNS_SERVER": "http://e/tpns"], "https://a/tpns"),
      (["--server=http://b:1/x"], [:], "http://b:1/x"),
    ] as [([String], [String: String], String)])
  func server(arguments: [String], environment: [String: String], server: String) throws {
    let sync = try Self.command(
      Sync.self, ["sync"] + arguments, environment: environment.merging(Self.home) { $1 })
    #expect(sync.options.server == server)
  }

  @Test(
    "the store: --store, else TPNS_STORE, else XDG_CONFIG_HOME's, else HOME's",
    arguments: [
      ([], ["HOME": "/h"], "/h/.config/tpns/state.plist"),
      ([], ["HOME": "/h", "XDG_CONFIG_HOME": "/x"], "/x/tpns/state.plist"),
      ([], ["HOME": "/h", "TPNS_STORE": "/s.plist"], "/s.plist"),
      (["--store", "/a.plist"], ["TPNS_STORE": "/s.plist"], "/a.plist"),
    ] as [([String], [String: String], String)])
  func store(arguments: [String], environment: [String: String], path: String) throws {
    let list = try Self.command(List.self, ["list"] + arguments, environment: environment)
    #expect(list.options.storePath == path)
  }

  @Test("the defaults of the sending options")
  func sendingDefaults() throws {
    let options = try Self.command(Sync.self, ["sync"]).options
    #expect(options.timeout == .seconds(30))
    #expect(options.method == .post)
    #expect(!options.json && !options.quiet && !options.verbose && !options.showToken)
    #expect(!options.requireHTTPS && !options.allowTokenInURL)
    #expect(options.caCertificate == nil)
  }

  @Test("every sending option, typed")
  func sendingOptions() throws {
    let options = try Self.command(
      Sync.self,
      [
        "sync", "--json", "-q", "-v", "--timeout", "1.5", "--method", "GET",
        "--allow-token-in-url", "--cacert", "ca.pem", "--show-token", "--server",
        "https://x/tpns", "--require-https",
      ]
    ).options
    #expect(options.json && options.quiet && options.verbose && options.showToken)
    #expect(options.timeout == .milliseconds(1500))
    #expect(options.method == .get)
    #expect(options.allowTokenInURL && options.requireHTTPS)
    #expect(options.caCertificate == "ca.pem")
  }

  @Test(
    "TPNS_REQUIRE_HTTPS: 1/true/yes/on or 0/false/no/off",
    arguments: [("1", true), ("on", true), ("0", false), ("off", false), ("", false)])
  func requireHTTPSEnvironment(value: String, required: Bool) throws {
    let options = try Self.command(
      Sync.self, ["sync", "--server", "https://x/tpns"],
      environment: ["HOME": "/h", "TPNS_REQUIRE_HTTPS": value]
    ).options
    #expect(options.requireHTTPS == required)
  }

  // MARK: Each command

  @Test(
    "add: UIDs as arguments, --from a file or '-', settings, --no-sync",
    arguments: [
      (["add", a, b], [a, b], nil, true),
      (["add", "--from", "uids.txt"], [], "uids.txt", true),
      (["add", "--from", "-", a], [a], "-", true),
      (["add", a, "--no-sync"], [a], nil, false),
      (["add", "--", a], [a], nil, true),
    ] as [([String], [String], String?, Bool)])
  func add(arguments: [String], uids: [String], file: String?, sync: Bool) throws {
    let add = try Self.command(Add.self, arguments)
    #expect(add.uids == uids)
    #expect(add.file == file)
    #expect(add.sync == sync)
  }

  @Test(
    "add and mapping: the settings change",
    arguments: [
      (
        ["add", a], MappingSettingsUpdate.Field<Int>.keep, MappingSettingsUpdate.Field<String>.keep
      ),
      (["add", a, "--interval", "30"], .set(30), .keep),
      (["add", a, "--no-interval", "--format", "-x {uid}"], .clear, .set("-x {uid}")),
      (["mapping", a, "--no-format"], .keep, .clear),
    ] as [([String], MappingSettingsUpdate.Field<Int>, MappingSettingsUpdate.Field<String>)])
  func settings(
    arguments: [String], interval: MappingSettingsUpdate.Field<Int>,
    format: MappingSettingsUpdate.Field<String>
  ) throws {
    guard case .run(let command) = try TPNS.parse(arguments, environment: Self.home) else {
      Issue.record("expected a command")
      return
    }
    let settings = try #require((command as? Add)?.settings ?? (command as? Mapping)?.settings)
    #expect(settings.interval == interval)
    #expect(settings.format == format)
  }

  @Test(
    "add --from: one UID a line, LF or CRLF, blank lines and # comments skipped, places kept",
    arguments: [
      ("\(a)\n\(b)\n", [a, b], ["f:1", "f:2"]),
      ("\(a)\r\n\r\n# a comment\r\n  \(b)  \r\n", [a, b], ["f:1", "f:4"]),
      ("\u{FEFF}\(a)", [a], ["f:1"]),
      ("# only a comment\n\n", [], []),
    ])
  func fromFile(text: String, uids: [String], places: [String]) {
    let lines = Add.lines(of: Array(text.utf8), name: "f")
    #expect(lines.map(\.text) == uids)
    #expect(lines.map(\.location) == places)
  }

  @Test(
    "import: the file or '-', --replace, --no-sync, the sending options",
    arguments: [
      (["import", "prefs.plist"], "prefs.plist", false, true),
      (["import", "-"], "-", false, true),
      (["import", "--replace", "a.plist"], "a.plist", true, true),
      (["import", "a.plist", "--no-sync", "--replace"], "a.plist", true, false),
      (["import", "--", "--replace"], "--replace", false, true),
    ] as [([String], String, Bool, Bool)])
  func importFile(arguments: [String], file: String, replace: Bool, sync: Bool) throws {
    let command = try Self.command(Import.self, arguments)
    #expect(command.file == file)
    #expect(command.replace == replace)
    #expect(command.sync == sync)
  }

  @Test("import takes the sending options as add does")
  func importOptions() throws {
    let options = try Self.command(
      Import.self,
      [
        "import", "p.plist", "--server", "http://e/tpns", "--store", "/s.plist", "--json",
        "--timeout", "5",
      ]
    ).options
    #expect(options.server == "http://e/tpns")
    #expect(options.storePath == "/s.plist")
    #expect(options.json)
    #expect(options.timeout == .seconds(5))
  }

  @Test("register: --os, --udid, --appid, --lang and --dev/--no-dev")
  func registerOptions() throws {
    let given = try Self.command(
      Register.self,
      [
        "register", "t", "--os", "Android", "--udid", "phone-1", "--appid", "com.x",
        "--lang", "zhTW", "--no-dev",
      ]
    ).given
    #expect(
      given
        == .init(os: .android, appID: "com.x", udid: "phone-1", language: "zhTW", sandbox: false))
    #expect(try Self.command(Register.self, ["register", "t"]).given == .init())
    #expect(try Self.command(Register.self, ["register", "t", "--dev"]).given.sandbox == true)
  }

  @Test(
    "remove: indexes, repeated --uid, --no-sync",
    arguments: [
      (["remove", "0", "2"], ["0", "2"], [String](), true),
      (["remove", "--uid", a, "--uid", b, "1"], ["1"], [a, b], true),
      (["remove", "-1", "--no-sync"], ["-1"], [], false),
    ] as [([String], [String], [String], Bool)])
  func remove(arguments: [String], indexes: [String], uids: [String], sync: Bool) throws {
    let remove = try Self.command(Remove.self, arguments)
    #expect(remove.indexes == indexes)
    #expect(remove.uids == uids)
    #expect(remove.sync == sync)
  }

  @Test("unregister, mapping, rm-mapping, event, watch: their own values")
  func others() throws {
    #expect(try Self.command(Unregister.self, ["unregister"]).uids == [])
    #expect(try Self.command(Unregister.self, ["unregister", "--uid", Self.a]).uids == [Self.a])
    #expect(try Self.command(Mapping.self, ["mapping", Self.a]).uid == Self.a)
    #expect(try Self.command(RemoveMapping.self, ["rm-mapping", Self.a]).uid == Self.a)
    let event = try Self.command(
      EventCommand.self, ["event", Self.a, "--type", "3", "--message", "-10 degrees"])
    #expect(event.uid == Self.a && event.type == 3 && event.message == "-10 degrees")
    let plain = try Self.command(EventCommand.self, ["event", Self.a, "--message", ""])
    #expect(plain.type == 1 && plain.message == nil && plain.time == nil)
    let watch = try Self.command(Watch.self, ["watch", "--debounce", "0", "--interval", "0.5"])
    #expect(watch.debounce == .zero && watch.maxDelay == .seconds(2))
    #expect(watch.interval == .milliseconds(500))
    #expect(try Self.command(Status.self, ["status", "--show-token"]).options.showToken)
    let ui = try Self.command(UserInterface.self, ["ui", "--server", "http://127.0.0.1:1/tpns"])
    #expect(ui.options.server == "http://127.0.0.1:1/tpns" && !ui.options.json)
  }

  @Test(
    "usage errors (exit 64), found before anything runs",
    arguments: [
      (["add"], "Missing expected argument '<uid>'"),
      (["remove"], "Missing expected argument '<index>'"),
      (["register"], "Missing expected argument '<token>' (or --token-file, or TPNS_TOKEN)"),
      (
        ["register", "t", "--token-file", "f"],
        "Give the token once: as <token> or with --token-file, not both"
      ),
      (["register", "t", "--dev", "--no-dev"], "--dev and --no-dev cannot be used together"),
      (["register", "t", "--udid", "a b"], "The value 'a b' is invalid for '--udid <id>'"),
      (
        ["add", a, "--from", ""],
        "The value '' is invalid for '--from <file>': it must be a path (not empty)"
      ),
      (
        ["add", a, "--timeout", "0"],
        "The value '0' is invalid for '--timeout <seconds>': it must be a number of seconds above 0, "
          + "up to 3600"
      ),
      (
        ["add", a, "--timeout", "nan"],
        "The value 'nan' is invalid for '--timeout <seconds>': it must be a number of seconds "
          + "above 0, up to 3600"
      ),
      (
        ["add", a, "--server", "ftp://x"],
        "The value 'ftp://x' is invalid for '--server <url>': it must be an http:// or https:// URL with a host (and a port from 0 to 65535, if any)"
      ),
      // No host after the credentials; a password without a scheme: refused
      // up front, before anything is stored, the password not shown back.
      (
        ["add", a, "--server", "https://me:secret@"],
        "The value 'https://***@' is invalid for '--server <url>': it must be an http:// or https:// URL with a host (and a port from 0 to 65535, if any)"
      ),
      (
        ["add", a, "--server", "me:secret@host"],
        "The value '***@host' is invalid for '--server <url>': it must be an http:// or https:// URL with a host (and a port from 0 to 65535, if any)"
      ),
      // The password of a URL refused is not shown back.
      (
        ["add", a, "--server", "sftp://me:secret@x/"],
        "The value 'sftp://***@x/' is invalid for '--server <url>': it must be an http:// or https:// URL with a host (and a port from 0 to 65535, if any)"
      ),
      (
        ["add", a, "--interval", "5", "--no-interval"],
        "--interval and --no-interval cannot be used together"
      ),
      (
        ["add", a, "--format", "x", "--no-format"],
        "--format and --no-format cannot be used together"
      ),
      (
        ["sync", "--method", "get"],
        "--method get would put the push token in the URL, where proxies and access logs keep it: "
          + "use --method post (the default), or add --allow-token-in-url"
      ),
      (
        ["event", a, "--type", "-5"],
        "The value '-5' is invalid for '--type <n>': it must be a whole number from 0 to 2147483647"
      ),
      (
        ["event", a, "--time", "-1"],
        "The value '-1' is invalid for '--time <epoch>': it must be a whole number of seconds "
          + "since 1970, 0 or more"
      ),
      (["event", a, "--allow-token-in-url"], "Unknown option '--allow-token-in-url'"),
      (
        ["watch", "--debounce", "600001"],
        "The value '600001' is invalid for '--debounce <ms>': it must be a whole number of "
          + "milliseconds from 0 to 600000"
      ),
      (
        ["watch", "--interval", "86401"],
        "The value '86401' is invalid for '--interval <seconds>': it must be a number of seconds "
          + "above 0, up to 86400"
      ),
      (["ui", "--json"], "Unknown option '--json'"),
      (["ui", "-q"], "Unknown option '-q'"),
      (["ui", "-v"], "Unknown option '-v'"),
      (["ui", "--verbose"], "Unknown option '--verbose'"),
      (
        ["ui", "--method", "get"],
        "--method get would put the push token in the URL, where proxies and access logs keep it: "
          + "use --method post (the default), or add --allow-token-in-url"
      ),
      (["list", "--server", "http://x/tpns"], "Unknown option '--server'"),
      (["status", "-q"], "Unknown option '-q'"),
      (["lst"], "Unknown command 'lst'. Did you mean 'list'?"),
      (["import"], "Missing expected argument '<file>'"),
      (["import", ""], "The value '' is invalid for '<file>': it must be a path (not empty)"),
      (["import", "a.plist", "b.plist"], "Unexpected argument 'b.plist'"),
      (["import", "a.plist", "--interval", "5"], "Unknown option '--interval'"),
      (
        ["import", "a.plist", "--timeout", "0"],
        "The value '0' is invalid for '--timeout <seconds>': it must be a number of seconds "
          + "above 0, up to 3600"
      ),
      (["imprt", "a.plist"], "Unknown command 'imprt'. Did you mean 'import'?"),
      (["import", "a.plist", "--", "b.plist"], "Unexpected argument 'b.plist'"),
    ])
  func usageErrors(arguments: [String], message: String) {
    #expect(Self.usageError(arguments) == message)
  }

  @Test("an invalid TPNS_SERVER or TPNS_REQUIRE_HTTPS is a usage error naming the variable")
  func environmentErrors() {
    #expect(
      Self.usageError(["sync"], environment: ["HOME": "/h", "TPNS_SERVER": "ftp://x"])
        == "TPNS_SERVER must be an http:// or https:// URL with a host (and a port from 0 to 65535, if any), got \"ftp://x\""
    )
    #expect(
      Self.usageError(["sync"], environment: ["HOME": "/h", "TPNS_SERVER": "ftp://me:secret@x/"])
        == "TPNS_SERVER must be an http:// or https:// URL with a host (and a port from 0 to 65535, if any), got \"ftp://***@x/\""
    )
    #expect(
      Self.usageError(["sync"], environment: ["HOME": "/h", "TPNS_REQUIRE_HTTPS": "maybe"])
        == "TPNS_REQUIRE_HTTPS must be 1, true, yes or on (or 0, false, no, off or empty), got "
        + "\"maybe\"")
    // list does not talk to a server: TPNS_SERVER is not looked at.
    #expect(
      Self.usageError(["list"], environment: ["HOME": "/h", "TPNS_SERVER": "ftp://x"]) == nil)
    #expect(
      Self.usageError(["list"], environment: [:])
        == "No store path: set --store, TPNS_STORE or HOME")
  }

  @Test(
    "an empty or blank TPNS_SERVER or TPNS_STORE is a usage error naming the variable, not the default",
    arguments: [
      (
        "TPNS_SERVER", "",
        "TPNS_SERVER is set but empty: set it to an http:// or https:// URL with a host (and a port from 0 to 65535, if any), or unset "
          + "it for the default"
      ),
      (
        "TPNS_SERVER", " ",
        "TPNS_SERVER must be an http:// or https:// URL with a host (and a port from 0 to 65535, if any), got \" \""
      ),
      (
        "TPNS_STORE", "",
        "TPNS_STORE is set but empty: set it to a path (not empty), or unset it for the default"
      ),
    ])
  func emptyEnvironment(variable: String, value: String, message: String) {
    #expect(Self.usageError(["sync"], environment: ["HOME": "/h", variable: value]) == message)
  }

  @Test(
    "a value out of range or not among the choices: the error says what is allowed",
    arguments: [
      (
        ["add", a, "--interval", "2147483648"],
        "The value '2147483648' is invalid for '--interval <seconds>': it must be a whole number "
          + "from 0 to 2147483647"
      ),
      (
        ["sync", "--timeout", "3601"],
        "The value '3601' is invalid for '--timeout <seconds>': it must be a number of seconds "
          + "above 0, up to 3600"
      ),
      (
        ["register", "--os", "windows", token],
        "The value 'windows' is invalid for '--os <os>': it must be one of "
          + OperatingSystem.documentedValues
      ),
      (
        ["sync", "--method", "put"],
        "The value 'put' is invalid for '--method <method>': it must be one of post, get"
      ),
      (
        ["status", "--color", "sometimes"],
        "The value 'sometimes' is invalid for '--color <when>': it must be one of auto, always, "
          + "never"
      ),
    ])
  func allowedValues(arguments: [String], message: String) {
    #expect(Self.usageError(arguments) == message)
  }

  @Test("short flags run together (-qv) are each flag, as getopt reads them")
  func combinedShortFlags() throws {
    let options = try Self.command(Sync.self, ["sync", "-qv"]).options
    #expect(options.quiet && options.verbose)
    let separate = try Self.command(Sync.self, ["sync", "-vq", "--json"]).options
    #expect(separate.quiet && separate.verbose && separate.json)
    #expect(Self.usageError(["sync", "-qz"]) == "Unknown option '-qz'")
  }

  @Test("--require-https refuses an http:// server off this machine, not one on it")
  func requireHTTPS() {
    #expect(
      Self.usageError(["sync", "--require-https", "--server", "http://example.com/tpns"])?
        .hasPrefix("http://example.com/tpns is not https://") == true)
    #expect(
      Self.usageError(["sync", "--require-https", "--server", "http://127.0.0.1:1/tpns"]) == nil)
  }
}
