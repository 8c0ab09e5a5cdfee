import ArgumentParsing
import Glibc
import Posix
import TPNSEmulator
import TPNSProtocol

/// `tpns-server`: runs the emulator until SIGHUP, SIGINT or SIGTERM.
public struct ServerCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "tpns-server",
    abstract: "A local emulator of the TUTK Push Notification Service (TPNS).",
    discussion: """
      Serves the TPNS protocol at http://HOST:PORT/tpns (GET query or POST form; \
      https with --tls-cert and --tls-key), \
      keeps its registry in SQLite, and answers inspection requests under \
      /_emulator/ (health, overview, registry, notifications, requests and \
      requests/count with filters, reset, faults, whitelist, snapshot, openapi.json, and \
      stream: live Server-Sent Events), with Prometheus metrics at /metrics. A \
      dashboard at http://HOST:PORT/ shows phones, mappings, notifications and \
      requests live. \
      It accepts what real clients send, as the real service does, and records \
      what a canonical client would not send as warnings in /_emulator/requests; \
      --strict refuses that with 400. With --whitelist only the file's UIDs are \
      activated, as in the vendor's console: mapping, rm_mapping and mapsync answer \
      the others 200 with a body starting 422 that names them (mapsync maps the \
      activated ones: the emulator's model). --import starts from a snapshot \
      (GET /_emulator/snapshot's document); --export-on-exit writes one as it stops. \
      SIGHUP, SIGINT or SIGTERM stops it.
      """,
    examples: [
      .init(
        "tpns-server --port 0 --port-file run/port --db registry.sqlite",
        "Listen on a free port (written to run/port once listening), keeping the registry."),
      .init(
        "tpns-server --import seed.json --export-on-exit after.json",
        "Start from a known state; keep what the run left, however it is stopped."),
      .init(
        "tpns-server exec -- Scripts/smoke.sh",
        "Run a script with TPNS_SERVER set to a fresh emulator, then stop it."),
    ],
    subcommands: [Exec.self, Completion.self, GenerateManual.self])

  @Option(
    help: ArgumentHelp("The address to listen on.", valueName: "host"), validate: { !$0.isEmpty },
    expectation: "an address (not empty)")
  var host = "127.0.0.1"
  @Option(help: ArgumentHelp("The port to listen on; 0 picks a free port.", valueName: "port"))
  var port: UInt16 = 7380
  @OptionGroup var storage: DatabaseOption
  @Option(
    help: ArgumentHelp("Write the port listened on to this file once listening.", valueName: "file")
  )
  var portFile: FilePath?
  @Option(
    help: ArgumentHelp("Threads serving requests (1 to 64).", valueName: "n"),
    validate: { (1...64).contains($0) }, expectation: "a whole number from 1 to 64")
  var threads = 1
  @OptionGroup var behaviour: BehaviourOptions
  @OptionGroup var tls: TLSOptions
  @OptionGroup var whitelist: WhitelistOption
  @OptionGroup var snapshots: SnapshotOptions
  @Flag(help: "Show the version.") var version = false

  public init() {}

  /// `--db`, which `tpns-server` and `exec` share.
  struct DatabaseOption: ParsableArguments {
    @Option(
      name: .customLong("db"),
      help: ArgumentHelp(
        "Keep the registry in this SQLite file (default: in memory).", valueName: "path"))
    var database: FilePath?
  }

  /// `--strict`, `--quiet` and `--allow-browser`, which `tpns-server` and `exec` share.
  struct BehaviourOptions: ParsableArguments {
    @Flag(
      help: ArgumentHelp(
        "Refuse with 400 what a canonical client would not send (default: accept it with a "
          + "warning)."))
    var strict = false
    @Flag(help: "Do not log a line per request.") var quiet = false
    @Flag(
      help: ArgumentHelp(
        "Run /tpns commands a browser sends by itself: an address typed or a link followed "
          + "(default: refused with 403, so that no web page or link can register a phone "
          + "or map a UID)."))
    var allowBrowser = false
  }

  /// Serves until SIGHUP, SIGINT or SIGTERM, then stops, closes the database and
  /// removes the port file. SIGHUP too: a closed terminal or a supervisor's reload must
  /// not kill it with the port file left behind.
  public func run() throws {
    if version {
      Console.line(TPNSVersion.current)
      return
    }
    let identity = try tls.identity()
    let activated = try whitelist.uids()
    let imported = try snapshots.snapshot()
    let signals = Signals(blocking: [SIGHUP, SIGINT, SIGTERM])
    let emulator = try Self.start(
      host: host, port: port, threads: threads, storage: storage, behaviour: behaviour,
      tls: identity, whitelist: activated, snapshot: imported, log: { Console.line($0) })
    defer { emulator.stop() }  // idempotent: `snapshots.stop` has stopped it before
    if let exposure = Self.exposureWarning(host: host) { Self.warning(exposure) }
    let written = try portFile.map { try PortFile.write(emulator.port, to: $0.string) }
    Console.line("listening on \(emulator.baseURL ?? "")")
    _ = signals.wait()
    defer { written?.remove() }
    try snapshots.stop(emulator)
    if !behaviour.quiet { Console.line("stopped") }
  }

  /// Where the emulator reports a problem with itself: stderr, even with `--quiet`.
  static let warning: Emulator.Logger = { @Sendable line in Console.error("warning: \(line)") }

  /// An emulator started with the options shared by `tpns-server` and `exec`, its request
  /// lines given to `log` unless `--quiet`; a failure to start is a reported error.
  static func start(
    host: String, port: UInt16, threads: Int = 1, storage: DatabaseOption,
    behaviour: BehaviourOptions, tls: TLSIdentity?, whitelist: [DeviceUID]?, snapshot: Snapshot?,
    log: @escaping Emulator.Logger
  ) throws -> Emulator {
    let emulator = Emulator(logger: behaviour.quiet ? nil : log, warning: warning)
    do throws(EmulatorError) {
      try emulator.start(
        host: host, port: port, database: storage.database?.string, threads: threads,
        strict: behaviour.strict, allowBrowser: behaviour.allowBrowser, tls: tls,
        whitelist: whitelist, snapshot: snapshot)
      return emulator
    } catch {
      let (hint, status): (String?, Int32) =
        switch error {
        case .cannotListen: ("Choose another --port (0 picks a free one) or --host.", 69)
        case .databaseLocked:
          (
            "Another process holds the database (a tpns-server, sqlite3): try again once it "
              + "is done.", 75
          )
        case .database: ("Check that the directory exists and is writable.", 73)
        case .notADatabase(let path, isDirectory: true):
          (
            "--db takes a file's path: pass one in that directory, such as "
              + "--db \(path.hasSuffix("/") ? path : path + "/")registry.sqlite.", 73
          )
        case .notADatabase, .notARegistry:
          (
            "--db takes a registry that tpns-server created, or a path where none exists yet "
              + "(one is created there); this file was left as it is.", 65
          )
        case .untrustedDatabase(_, _, let fix): (fix, 73)
        case .snapshot: ("Pass a file that GET /_emulator/snapshot wrote.", 65)
        case .alreadyRunning: (nil, 1)
        }
      throw CommandFailure(error.description, hint: hint, exitCode: ExitCode(status))
    }
  }
}
