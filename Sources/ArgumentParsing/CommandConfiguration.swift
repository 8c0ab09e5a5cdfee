/// What a command says about itself beyond its declared options: its name,
/// abstract, discussion, version and subcommands (swift-argument-parser's
/// `CommandConfiguration`).
///
/// ```swift
/// static let configuration = CommandConfiguration(
///   commandName: "tpns-server", abstract: "A local TPNS.", subcommands: [Exec.self])
/// ```
public struct CommandConfiguration: Sendable {
  /// The name typed on the command line; nil: the type's name in kebab case.
  public var commandName: String?
  /// One line, shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:`.
  public var abstract: String
  /// Paragraphs shown after the overview.
  public var discussion: String
  /// Subcommands, selected by the first argument.
  public var subcommands: [any ParsableCommand.Type]
  /// The version `--version` prints; empty: no `--version`.
  public var version: String
  /// What `--version` prints after ``version`` and a space, computed only
  /// when it is asked for (`(libcurl 7.88.1)`, which needs libcurl loaded);
  /// nil: nothing.
  public var versionDetail: (@Sendable () -> String)?
  /// Whether help, completion and manual pages show it (false: a command for
  /// tools, such as the completion scripts' `__complete`).
  public var shouldDisplay: Bool
  /// Examples for the manual page: a command line and what it does.
  public var examples: [Example]
  /// The exit statuses this command ends with, for its manual page; nil:
  /// the program's (``ManualSupplement/exitStatuses``).
  public var exitStatuses: [ExitStatusDescription]?

  public init(
    commandName: String? = nil, abstract: String = "", discussion: String = "",
    version: String = "", versionDetail: (@Sendable () -> String)? = nil,
    shouldDisplay: Bool = true, examples: [Example] = [],
    exitStatuses: [ExitStatusDescription]? = nil, subcommands: [any ParsableCommand.Type] = []
  ) {
    self.commandName = commandName
    self.abstract = abstract
    self.discussion = discussion
    self.version = version
    self.versionDetail = versionDetail
    self.shouldDisplay = shouldDisplay
    self.examples = examples
    self.exitStatuses = exitStatuses
    self.subcommands = subcommands
  }

  /// An exit status and when a command ends with it, for the manual's EXIT STATUS.
  public struct ExitStatusDescription: Sendable {
    public var code: Int32
    public var meaning: String

    public init(_ code: Int32, _ meaning: String) {
      self.code = code
      self.meaning = meaning
    }
  }

  /// A command line and what it does, for the manual's EXAMPLES.
  public struct Example: Sendable {
    public var command: String
    public var explanation: String

    public init(_ command: String, _ explanation: String) {
      self.command = command
      self.explanation = explanation
    }
  }
}

extension ParsableCommand {
  /// The name typed on the command line: the configuration's, or the type's
  /// name in kebab case (`RemoveMapping` → `remove-mapping`).
  public static var commandName: String {
    // `_typeName`, not `String(describing:)`: the latter asks the runtime
    // whether the metatype conforms to three printing protocols, each a scan.
    configuration.commandName ?? _typeName(self, qualified: false).kebabCased
  }

  /// The subcommands help, completion and manual pages show.
  static var displayedSubcommands: [any ParsableCommand.Type] {
    configuration.subcommands.filter { $0.configuration.shouldDisplay }
  }

  /// Every command from this one down, as paths from it, in help order.
  static func commandPaths(from prefix: [any ParsableCommand.Type] = [])
    -> [[any ParsableCommand.Type]]
  {
    let path = prefix + [self]
    return [path] + displayedSubcommands.flatMap { $0.commandPaths(from: path) }
  }

  static func subcommand(named name: String) -> (any ParsableCommand.Type)? {
    configuration.subcommands.first { $0.commandName == name }
  }

  /// Whether the command only groups subcommands: it has subcommands and no
  /// declarations of its own (`tpns`, but not `tpns-server`, which runs by
  /// itself).
  static func isGroup(_ definitions: [ArgumentDefinition]) -> Bool {
    !configuration.subcommands.isEmpty && definitions.isEmpty
  }
}
