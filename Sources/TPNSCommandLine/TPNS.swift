import ArgumentParsing
import TPNSKit

/// `tpns`: the root command.
public struct TPNS: ParsableCommand {
  public static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "tpns",
      abstract: "Register push tokens and map device UIDs on the TUTK Push Notification Service.",
      discussion: """
        The UID list lives in a property-list store, the single source of truth; every \
        change is stored first, then sent to the server as one mapsync. A change the \
        server did not get stays pending until 'tpns sync'.
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
