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
}

/// What running a command line comes to, before anything is printed.
public enum CommandLineOutcome {
  /// Run this command.
  case run(any ParsableCommand)
  /// Print this help to stdout and exit 0.
  case help(String)
}

extension ParsableCommand {
  /// Parses `arguments` (without the program name) from this root command: the
  /// command to run, or the help asked for. Throws ``UsageError``.
  public static func parse(_ arguments: [String]) throws -> CommandLineOutcome {
    switch try ArgumentParser.parse(arguments, root: self) {
    case .help(let path):
      return .help(HelpGenerator.help(for: path))
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
    do {
      switch try parse(arguments) {
      case .help(let text):
        Console.write(text, to: STDOUT_FILENO)
        exit(0)
      case .run(let command):
        try command.run()
        exit(0)
      }
    } catch {
      let (message, code) = report(error)
      Console.write(message, to: STDERR_FILENO)
      exit(code)
    }
  }
}
