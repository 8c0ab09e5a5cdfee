@testable import ArgumentParsing

// Command trees shaped like `tpns-server` (Root) and `tpns` (Kit), declared
// as the real ones are: property wrappers, groups, defaults, environment.

/// Shaped like `tpns-server`: options of its own and subcommands.
struct Root: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tool", abstract: "Does things.", subcommands: [Run.self, Add.self])

  @Option(help: "The host.") var host = "127.0.0.1"
  @Option(name: [.long, .customShort("p")], help: "The port.") var port: UInt16 = 7380
  @Flag(name: .shortAndLong, help: "Say less.") var quiet = false

  func run() throws {}
}

struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Runs a command.")

  @Flag(help: "Say less.") var quiet = false
  @Argument(parsing: .postTerminator, help: "The command.") var command: [String]

  func run() throws {}
}

struct Add: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Adds UIDs.")

  @Argument(help: ArgumentHelp("The UIDs.", valueName: "uid"), validate: { $0.count == 3 })
  var uids: [String]

  func validate() throws {
    if uids.contains("BAD") { throw ValidationError("BAD is not allowed") }
  }

  func run() throws {}
}

/// Shaped like `tpns`: a version, subcommands, nothing of its own.
struct Kit: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "kit", abstract: "Groups things.", version: "1.2.3",
    subcommands: [Push.self, Pull.self, Send.self])

  func run() throws {}
}

struct Push: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Pushes.")

  @Option(parsing: .unconditional, help: ArgumentHelp("Free text.", valueName: "text"))
  var message: String?
  @Option(help: ArgumentHelp("A count.", valueName: "n"), validate: { $0 >= 0 }) var count: Int?
  @Option(help: ArgumentHelp("Any number.", valueName: "n")) var offset: Double?
  @Option(help: "A file, '-' for standard input.") var file: String?
  @Option(name: .customLong("tag"), help: "A tag.") var tags: [String] = []
  @Flag(help: "JSON.") var json = false
  @Argument(help: ArgumentHelp("Indexes.", valueName: "index")) var indexes: [String] = []

  func run() throws {}
}

/// A command with an option named by a digit: negative numbers are options there.
struct Pull: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Pulls.")

  @Flag(name: [.long, .customShort("1")], help: "Just one.") var one = false
  @Argument(help: ArgumentHelp("Indexes.", valueName: "index")) var indexes: [String] = []

  func run() throws {}
}

/// Where a command sends: a group shared by commands, with an environment
/// fallback and its own validation.
struct Destination: ParsableArguments {
  enum Method: String, CaseIterable, ExpressibleByArgument { case post, get }

  @Option(help: ArgumentHelp("The server.", valueName: "url"), environment: "KIT_SERVER")
  var server = "http://default/"
  @Option(help: "post or get.") var method = Method.post
  @Flag(help: "Refuse http://.", environment: "KIT_SECURE") var secure = false

  func validate() throws {
    if secure, server.hasPrefix("http://") { throw ValidationError("http:// is not secure") }
  }
}

/// A command with a group, an inverted flag, an environment-only value and
/// a single optional argument.
struct Send: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Sends.")

  @OptionGroup var destination: Destination
  @Flag(inversion: .prefixedNo, help: "Use the sandbox.") var sandbox: Bool?
  @EnvironmentVariable("KIT_TOKEN", help: "The token.") var environmentToken: String?
  @Argument(help: "The token.") var token: String?

  func validate() throws {
    if token == nil, environmentToken == nil {
      throw ValidationError("Missing expected argument '<token>' (or KIT_TOKEN)")
    }
  }

  func run() throws {}
}

/// The command `arguments` parse to, as `T`.
func parsed<T: ParsableCommand>(
  _ type: T.Type, _ arguments: [String], root: any ParsableCommand.Type = Kit.self,
  environment: [String: String] = [:]
) throws -> T? {
  guard case .run(let command) = try root.parse(arguments, environment: environment) else {
    return nil
  }
  return command as? T
}
