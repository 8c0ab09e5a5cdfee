import ArgumentParsing
import TPNSEmulator
import TPNSProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `tpns-server`: runs the emulator until SIGHUP, SIGINT or SIGTERM.
public struct ServerCommand: ParsableCommand {
  public static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "tpns-server",
      abstract: "A local emulator of the TUTK Push Notification Service (TPNS).",
      discussion: """
        Serves the TPNS protocol at http://HOST:PORT/tpns (GET query or POST form), \
        keeps its registry in SQLite, and answers inspection requests under \
        /_emulator/ (health, registry, notifications, requests, reset, faults). \
        It accepts what real clients send, as the real service does, and records \
        what a canonical client would not send as warnings in /_emulator/requests; \
        --strict refuses that with 400. SIGHUP, SIGINT or SIGTERM stops it.
        """,
      options: [
        .option(
          "host", valueName: "host", help: "The address to listen on.",
          defaultValue: "127.0.0.1", validate: { !$0.isEmpty }),
        .option(
          "port", valueName: "port", help: "The port to listen on; 0 picks a free port.",
          defaultValue: "7380", validate: { UInt16($0) != nil }),
        .option(
          "db", valueName: "path",
          help: "Keep the registry in this SQLite file (default: in memory).",
          validate: { !$0.isEmpty }),
        .option(
          "port-file", valueName: "file",
          help: "Write the port listened on to this file once listening.",
          validate: { !$0.isEmpty }),
        .option(
          "threads", valueName: "n", help: "Threads serving requests (1 to 64).",
          defaultValue: "1", validate: { Int($0).map { (1...64).contains($0) } ?? false }),
        .flag(
          "strict",
          help: "Refuse with 400 what a canonical client would not send (default: accept it "
            + "with a warning)."),
        .flag("quiet", help: "Do not log a line per request."),
        .flag("version", help: "Show the version."),
      ],
      subcommands: [Exec.self])
  }

  /// `--host`: the address to listen on.
  public var host: String
  /// `--port`: 0 picks a free port.
  public var port: UInt16
  /// `--db`: the registry's SQLite file; nil keeps it in memory.
  public var database: String?
  /// `--port-file`: where to write the chosen port.
  public var portFile: String?
  /// `--threads`: threads serving requests.
  public var threads: Int
  /// `--strict`: refuse what a canonical client would not send.
  public var strict: Bool
  /// `--quiet`: no line per request.
  public var quiet: Bool
  /// `--version`: print the version instead of serving.
  public var version: Bool

  /// The command from its parsed options.
  public init(_ values: ParsedValues) throws {
    host = values.value("host") ?? "127.0.0.1"
    port = values.value("port", as: UInt16.self) ?? 7380
    database = values.value("db")
    portFile = values.value("port-file")
    threads = values.value("threads", as: Int.self) ?? 1
    strict = values.flag("strict")
    quiet = values.flag("quiet")
    version = values.flag("version")
  }

  /// Serves until SIGHUP, SIGINT or SIGTERM, then stops, closes the database and
  /// removes the port file. SIGHUP too: a closed terminal or a supervisor's reload must
  /// not kill it with the port file left behind.
  public func run() throws {
    if version {
      Console.line(TPNSVersion.current)
      return
    }
    let signals = Signals(blocking: [SIGHUP, SIGINT, SIGTERM])
    let logger: Emulator.Logger? = quiet ? nil : { @Sendable line in Console.line(line) }
    let emulator = Emulator(logger: logger, warning: Self.warning)
    try Self.start(
      emulator, host: host, port: port, database: database, threads: threads, strict: strict)
    if let exposure = Self.exposureWarning(host: host) { Self.warning(exposure) }
    let written: PortFile?
    do {
      written = try portFile.map { try PortFile.write(emulator.port, to: $0) }
    } catch {
      emulator.stop()
      throw error
    }
    Console.line("listening on \(emulator.baseURL ?? "")")
    _ = signals.wait()
    emulator.stop()
    written?.remove()
    if !quiet { Console.line("stopped") }
  }

  /// Where the emulator reports a problem with itself: stderr, even with `--quiet`.
  static let warning: Emulator.Logger = { @Sendable line in Console.error("warning: \(line)") }

  /// Starts `emulator`, turning a failure into a reported error.
  static func start(
    _ emulator: Emulator, host: String, port: UInt16, database: String?, threads: Int = 1,
    strict: Bool = false
  ) throws {
    do throws(EmulatorError) {
      try emulator.start(
        host: host, port: port, database: database, threads: threads, strict: strict)
    } catch {
      switch error {
      case .cannotListen:
        throw CommandFailure(
          error.description, hint: "Choose another --port (0 picks a free one) or --host.",
          exitCode: ExitCode(69))
      case .database:
        throw CommandFailure(
          error.description, hint: "Check that the directory exists and is writable.",
          exitCode: ExitCode(73))
      case .notADatabase(let path, isDirectory: true):
        throw CommandFailure(
          error.description,
          hint: "--db takes a file's path: pass one in that directory, such as "
            + "--db \(path.hasSuffix("/") ? path : path + "/")registry.sqlite.",
          exitCode: ExitCode(73))
      case .notADatabase, .notARegistry:
        throw CommandFailure(
          error.description,
          hint: "--db takes a registry that tpns-server created, or a path where none exists "
            + "yet (one is created there); this file was left as it is.",
          exitCode: ExitCode(65))
      case .alreadyRunning:
        throw CommandFailure(error.description)
      }
    }
  }
}
