/// The shape of a command: its name, one-line abstract, options, positional
/// arguments and subcommands, as help shows them.
///
/// ```swift
/// static let configuration = CommandConfiguration(
///   commandName: "tpns-server", abstract: "A local TPNS.",
///   options: [.option("port", valueName: "port", help: "The port.", defaultValue: "7380")],
///   subcommands: [Exec.self])
/// ```
public struct CommandConfiguration {
  /// The name typed on the command line.
  public var commandName: String
  /// One line, shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:`.
  public var abstract: String
  /// Paragraphs shown after the overview.
  public var discussion: String
  /// Options and flags, in help order (`-h, --help` is added at the end).
  public var options: [Option]
  /// Positional arguments, in order.
  public var arguments: [Argument]
  /// Subcommands, selected by the first argument.
  public var subcommands: [any ParsableCommand.Type]
  /// The version `--version` prints; empty: no `--version` (swift-argument-parser's
  /// `version:`, for the root command).
  public var version: String

  /// A command named `commandName`; everything else is optional.
  public init(
    commandName: String, abstract: String = "", discussion: String = "", version: String = "",
    options: [Option] = [], arguments: [Argument] = [],
    subcommands: [any ParsableCommand.Type] = []
  ) {
    self.commandName = commandName
    self.abstract = abstract
    self.discussion = discussion
    self.version = version
    self.options = options
    self.arguments = arguments
    self.subcommands = subcommands
  }

  /// Whether the command only groups subcommands: it has subcommands and no
  /// options or arguments of its own (`tpns`, but not `tpns-server`, which runs
  /// by itself). Its usage is `tpns <subcommand>`, a first argument that is not
  /// one of its subcommands is an unknown command, and alone it shows its help.
  var isGroup: Bool {
    !subcommands.isEmpty && options.isEmpty && arguments.isEmpty
  }

  /// The subcommand named `name`.
  func subcommand(named name: String) -> (any ParsableCommand.Type)? {
    subcommands.first { $0.configuration.commandName == name }
  }

  /// The declared option named `--name` (long) or `-name` (short).
  func option(named name: String) -> Option? {
    if name.hasPrefix("--") {
      let long = name.dropFirst(2)
      return options.first { $0.name == long }
    }
    if name.hasPrefix("-"), name.count == 2, let short = name.last {
      return options.first { $0.shortName == short }
    }
    return nil
  }
}
