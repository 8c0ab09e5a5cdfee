import Glibc
import Posix

/// A command: declared options (``ParsableArguments``), a ``CommandConfiguration``
/// and a `run()`, as in swift-argument-parser.
///
/// ```swift
/// struct Greet: ParsableCommand {
///   @Option(help: "Whom to greet.") var name = "world"
///   func run() throws { print("hello, \(name)") }
/// }
/// Greet.main()
/// ```
public protocol ParsableCommand: ParsableArguments {
  static var configuration: CommandConfiguration { get }

  /// Does the work. Throw ``ExitCode`` to end with a status, ``CommandFailure`` to
  /// report an error.
  mutating func run() throws

  /// How the program ends with `error`, thrown by parsing when `command` is nil,
  /// else by `command`'s `run`. The root command's is asked: it is the one place
  /// that decides. By default, ``ErrorReport/init(_:)``.
  static func report(
    _ error: any Error, command: (any ParsableCommand)?, arguments: [String]
  ) -> ErrorReport
}

/// What running a command line comes to, before anything is printed.
public enum CommandLineOutcome {
  /// Run this command.
  case run(any ParsableCommand)
  /// Print this help to stdout and exit 0.
  case help(String)
  /// Print this version to stdout and exit 0.
  case version(String)
}

extension ParsableCommand {
  public static var configuration: CommandConfiguration { CommandConfiguration() }

  public static func report(
    _ error: any Error, command: (any ParsableCommand)?, arguments: [String]
  ) -> ErrorReport {
    ErrorReport(error)
  }

  /// Parses `arguments` (without the program name) from this root command: the
  /// command to run, validated, or the help asked for. Options declared with
  /// an `environment` variable read it from `environment` (nil: the process's).
  /// Throws ``UsageError``.
  public static func parse(_ arguments: [String], environment: [String: String]? = nil) throws
    -> CommandLineOutcome
  {
    let lookup: @Sendable (String) -> String? = { name in
      environment.map { $0[name] } ?? getenv(name).map { String(cString: $0) }
    }
    switch try ArgumentParser.parse(arguments, root: self, environment: lookup) {
    case .help(let path):
      return .help(HelpGenerator.help(for: path))
    case .version(let version):
      return .version(version)
    case .command(let path, let values):
      let type = path[path.count - 1]
      do {
        var command = try type.init(from: ArgumentDecoder(values: values, codingPath: []))
        try command.validate()
        return .run(command)
      } catch let error as ValidationError {
        throw ArgumentParser.error(error.message, path)
      }
    }
  }

  /// Parses the process's arguments, runs the command and exits: the one place that
  /// prints errors and ends the program.
  public static func main(_ arguments: [String]? = nil) -> Never {
    let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
    var command: (any ParsableCommand)?
    do {
      switch try parse(arguments) {
      case .help(let text):
        Console.write(text, to: STDOUT_FILENO)
      case .version(let version):
        Console.line(version)
      case .run(var parsed):
        command = parsed
        try parsed.run()
      }
      // Output that went missing (a full disk, a closed pipe) is no success.
      if let failure = Console.outputFailure {
        Console.error(
          "Error: standard output could not be written: \(failure)\n"
            + "The command ran to the end; what it printed is incomplete.")
        exit(74)  // EX_IOERR
      }
      exit(0)
    } catch {
      let report = report(error, command: command, arguments: arguments)
      if let output = report.output { Console.write(output, to: STDOUT_FILENO) }
      Console.write(report.message, to: STDERR_FILENO)
      exit(report.exitCode.rawValue)
    }
  }
}

/// How a program ends with an error: what goes to stdout and stderr, and its
/// exit status.
public struct ErrorReport: Sendable, Equatable {
  /// Written to standard output first (a `--json` document); nil: nothing.
  public var output: String?
  /// Written to standard error (`Error: …`, a hint, usage).
  public var message: String
  public var exitCode: ExitCode

  public init(output: String?, message: String, exitCode: ExitCode) {
    self.output = output
    self.message = message
    self.exitCode = exitCode
  }

  /// The report of `error` in swift-argument-parser's words: a usage error's
  /// three lines (64), a ``CommandFailure``'s message, hint and status (and its
  /// `output`), an ``ExitCode`` silently, anything else as `Error: …` (1).
  public init(_ error: any Error) {
    switch error {
    case let code as ExitCode:
      self.init(output: nil, message: "", exitCode: code)
    case let usage as UsageError:
      self.init(output: nil, message: usage.rendered, exitCode: .usage)
    case let failure as CommandFailure:
      let hint = failure.hint.map { "\($0)\n" } ?? ""
      self.init(
        output: failure.output, message: "Error: \(failure.message)\n\(hint)",
        exitCode: failure.exitCode)
    default:
      self.init(output: nil, message: "Error: \(error)\n", exitCode: .failure)
    }
  }
}
