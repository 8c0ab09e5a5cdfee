import ArgumentParsing
import TPNSKit

/// `tpns`: the root command.
public struct TPNS: ParsableCommand {
  public static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "tpns",
      abstract: "Register push tokens and map device UIDs on the TUTK Push Notification Service.",
      discussion: """
        The store (a property list) holds what you want: the token and the UID list, and \
        what each server acknowledged. Every change is stored first; then the command \
        brings the server in use in line (register, unmap a former phone, one mapsync). \
        A change the server did not get stays pending: 'tpns status' shows it, and \
        re-running the command or 'tpns sync' sends it.
        """,
      options: [.flag("version", help: "Show the version.")],
      subcommands: [
        Register.self, Add.self, Remove.self, List.self, Sync.self, Status.self, Event.self,
        Watch.self,
      ])
  }

  let version: Bool

  public init(_ values: ParsedValues) throws {
    version = values.flag("version")
  }

  public func run() throws {
    if version {
      Console.line(TPNSVersion.current)
    } else {
      // Like a command group without a default subcommand: the help.
      guard case .help(let text) = try Self.parse(["--help"]) else { return }
      Console.line(String(text.dropLast()))
    }
  }
}
