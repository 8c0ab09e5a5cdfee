#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A command: a ``CommandConfiguration``, an initialiser from parsed values (which
/// may throw a ``ValidationError``) and a `run()`.
///
/// ```swift
/// struct Greet: ParsableCommand {
///   static var configuration: CommandConfiguration { .init(commandName: "greet") }
///   init(_ values: ParsedValues) throws {}
///   func run() throws { print("hello") }
/// }
/// Greet.main()
/// ```
public protocol ParsableCommand {
  static var configuration: CommandConfiguration { get }

  /// Builds the command from what was parsed for it.
  init(_ values: ParsedValues) throws

  /// Does the work. Throw ``ExitCode`` to end with a status, ``CommandFailure`` to
  /// report an error.
  func run() throws

  /// What to write on standard output when the program ends with `error`
  /// (thrown by parsing when `command` is nil, else by `command`'s `run`),
  /// before the error goes to standard error: a `--json` document, say. The
  /// root command's is asked. By default, a ``CommandFailure``'s `output`.
  static func output(
    for error: any Error, command: (any ParsableCommand)?, arguments: [String]
  ) -> String?
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
  public static func output(
    for error: any Error, command: (any ParsableCommand)?, arguments: [String]
  ) -> String? {
    (error as? CommandFailure)?.output
  }

  /// Parses `arguments` (without the program name) from this root command: the
  /// command to run, or the help asked for. Throws ``UsageError``.
  public static func parse(_ arguments: [String]) throws -> CommandLineOutcome {
    switch try ArgumentParser.parse(arguments, root: self) {
    case .help(let path):
      return .help(HelpGenerator.help(for: path))
    case .version(let version):
      return .version(version)
    case .command(let path, let values):
      let type = path[path.count - 1]
      do {
        return .run(try type.init(values))
      } catch let error as ValidationError {
        throw ArgumentParser.error(error.message, path)
      }
    }
  }

  /// The stderr text and exit status for an error thrown by parsing or running.
  public static func report(_ error: any Error) -> (message: String, exitCode: Int32) {
    switch error {
    case let code as ExitCode:
      return ("", code.rawValue)
    case let usage as UsageError:
      return (usage.rendered, ExitCode.usage.rawValue)
    case let failure as CommandFailure:
      let hint = failure.hint.map { "\($0)\n" } ?? ""
      return ("Error: \(failure.message)\n\(hint)", failure.exitCode.rawValue)
    default:
      return ("Error: \(error)\n", ExitCode.failure.rawValue)
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
        exit(0)
      case .version(let version):
        Console.line(version)
        exit(0)
      case .run(let parsed):
        command = parsed
        try parsed.run()
        exit(0)
      }
    } catch {
      if let output = output(for: error, command: command, arguments: arguments) {
        Console.write(output, to: STDOUT_FILENO)
      }
      let (message, code) = report(error)
      Console.write(message, to: STDERR_FILENO)
      exit(code)
    }
  }
}
