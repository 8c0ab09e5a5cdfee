import ArgumentParsing
import Posix
import TPNSKit
import TPNSProtocol

/// `tpns`: the root command, a group of subcommands.
public struct TPNS: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "tpns",
    abstract: "Register push tokens and map device UIDs on the TUTK Push Notification Service.",
    discussion: """
      The store (a property list) holds what you want: the token and the UID list, and \
      what each server acknowledged. Every change is stored first; then the command \
      brings the server in use in line (register, unmap a former phone, one mapsync). \
      A change the server did not get stays pending: 'tpns status' shows it, and \
      re-running the command or 'tpns sync' sends it.
      """,
    // The libcurl it runs on, as curl --version says: a bug report needs both.
    version: TPNSVersion.current,
    versionDetail: { "(libcurl \(CurlTransport.libraryVersion))" },
    examples: [
      .init(
        "tpns register --token-file token.txt && tpns add ABCDEFGHJKLMNPRSTUVW",
        "Register this phone's token, then map a device to it."),
      .init(
        "tpns-server exec -- sh -c 'tpns register --token-file t && tpns list'",
        "Run the whole flow against a local emulator on a free port."),
    ],
    subcommands: [
      Register.self, Add.self, Import.self, Remove.self, List.self, Sync.self, Status.self,
      EventCommand.self, DeviceCommand.self, Watch.self, UserInterface.self, Mapping.self,
      RemoveMapping.self,
      Unregister.self,
      Completion.self, CompletionWords.self, GenerateManual.self,
    ])

  public init() {}

  /// Shows the help, as a command group does.
  public func run() throws {
    guard case .help(let text) = try Self.parse(["--help"]) else { return }
    Console.write(text, to: 1)
  }

  /// The one place that decides how `tpns` ends with an error: the message
  /// and exit status (``ErrorReport``), and with `--json`, a document for
  /// every failure (the command's own, or one reporting the error).
  public static func report(
    _ error: any Error, command: (any ParsableCommand)?, arguments: [String]
  ) -> ErrorReport {
    var report = ErrorReport(error)
    if report.output == nil {
      report.output = document(for: error, command: command, arguments: arguments)
    }
    // A usage error quotes what was typed, a token perhaps: masked as all output is.
    let mask = TokenMask(
      showsTokens: (command as? any TPNSSubcommand)?.options.showToken
        ?? typed("--show-token", in: arguments))
    report.output = report.output.map(mask.hexRuns)
    report.message = Palette.of(2, choice: colorChoice(command: command, arguments: arguments))
      .paintLabels(mask.hexRuns(report.message))
    return report
  }

  /// Whether `flag` was typed before `--`: a flag as typed when parsing failed.
  static func typed(_ flag: String, in arguments: [String]) -> Bool {
    arguments.prefix { $0 != "--" }.contains(flag)
  }

  /// `--color` as the command was parsed, or as typed when parsing failed.
  static func colorChoice(command: (any ParsableCommand)?, arguments: [String]) -> ColorChoice {
    if let command = command as? any TPNSSubcommand { return command.options.color }
    var choice = ColorChoice.auto
    let typed = Array(arguments.prefix { $0 != "--" })
    for (index, argument) in typed.enumerated() {
      if argument.hasPrefix("--color=") {
        choice = ColorChoice(argument: String(argument.dropFirst(8))) ?? choice
      } else if argument == "--color", index + 1 < typed.count {
        choice = ColorChoice(argument: typed[index + 1]) ?? choice
      }
    }
    return choice
  }

  /// The `--json` document reporting `error`, or nil without `--json`.
  static func document(
    for error: any Error, command: (any ParsableCommand)?, arguments: [String]
  ) -> String? {
    // Not parsed: the flag as typed.
    guard
      (command as? any TPNSSubcommand)?.options.json ?? typed("--json", in: arguments)
    else { return nil }
    let name = command.map { type(of: $0).commandName }
    let failure: (command: String?, message: String, hint: String?, code: ExitCode)
    switch error {
    case let usage as UsageError:
      failure = (
        usage.commandPath.count > 1 ? usage.commandPath.dropFirst().joined(separator: " ") : nil,
        usage.message,
        "See '\(usage.commandPath.joined(separator: " ")) --help' for more information.", .usage
      )
    case let error as CommandFailure:
      failure = (name, error.message, error.hint, error.exitCode)
    case is ExitCode:
      return nil
    default:
      failure = (name, "\(error)", nil, .failure)
    }
    return OrderedJSON.object([
      ("command", failure.command.map(OrderedJSON.string) ?? .null),
      ("ok", .bool(false)),
      ("exit_code", .number(Int(failure.code.rawValue))),
      ("errors", .array([.string(failure.message.escapingControlCharacters)])),
      ("hint", failure.hint.map(OrderedJSON.string) ?? .null),
    ]).rendered + "\n"
  }
}
