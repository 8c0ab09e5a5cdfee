import Testing

@testable import ArgumentParsing

/// A command tree shaped like `tpns-server`, for the parser.
struct Root: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "tool", abstract: "Does things.",
      options: [
        .option("host", valueName: "host", help: "The host.", defaultValue: "127.0.0.1"),
        .option(
          "port", short: "p", valueName: "port", help: "The port.", defaultValue: "7380",
          validate: { UInt16($0) != nil }),
        .flag("quiet", short: "q", help: "Say less."),
      ],
      subcommands: [Run.self, Add.self])
  }

  init(_ values: ParsedValues) throws {}
  func run() throws {}
}

struct Run: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "run", abstract: "Runs a command.",
      options: [.flag("quiet", help: "Say less.")],
      arguments: [Argument("command", help: "The command.", parsing: .postTerminator)])
  }

  init(_ values: ParsedValues) throws {}
  func run() throws {}
}

struct Add: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "add", abstract: "Adds UIDs.",
      arguments: [
        Argument("uid", help: "The UIDs.", parsing: .remaining, validate: { $0.count == 3 })
      ])
  }

  init(_ values: ParsedValues) throws {
    if values.argument("uid").contains("BAD") { throw ValidationError("BAD is not allowed") }
  }
  func run() throws {}
}

@Suite("ArgumentParser")
struct ArgumentParserTests {
  static func values(_ arguments: [String]) throws -> (String, ParsedValues) {
    switch try ArgumentParser.parse(arguments, root: Root.self) {
    case .command(let path, let values):
      return (path.map { $0.configuration.commandName }.joined(separator: " "), values)
    case .help, .version:
      Issue.record("unexpected help or version")
      return ("", ParsedValues())
    }
  }

  @Test("options, flags and defaults")
  func options() throws {
    let (command, values) = try Self.values(["--port", "80", "-q", "--host=::1"])
    #expect(command == "tool")
    #expect(values.value("port", as: UInt16.self) == 80)
    #expect(values.value("host") == "::1")
    #expect(values.flag("quiet"))
    let (_, defaults) = try Self.values([])
    #expect(defaults.value("port") == "7380")
    #expect(defaults.value("host") == "127.0.0.1")
    #expect(!defaults.flag("quiet"))
    #expect(try Self.values(["-p", "1", "--port", "2"]).1.value("port") == "2")
  }

  @Test("a subcommand, and everything after -- as its argument")
  func terminator() throws {
    let (command, values) = try Self.values(["run", "--quiet", "--", "sh", "-c", "exit 3", "--"])
    #expect(command == "tool run")
    #expect(values.flag("quiet"))
    #expect(values.argument("command") == ["sh", "-c", "exit 3", "--"])
  }

  @Test("remaining positional values")
  func remaining() throws {
    let (_, values) = try Self.values(["add", "ABC", "DEF"])
    #expect(values.argument("uid") == ["ABC", "DEF"])
  }

  @Test(
    "help is asked for",
    arguments: [
      (["--help"], "tool"), (["-h"], "tool"), (["--port", "x", "-h"], "tool"),
      (["run", "--help"], "tool run"), (["help", "run"], "tool run"), (["help"], "tool"),
      (["run", "--", "--help"], nil),
    ])
  func help(arguments: [String], path: String?) throws {
    let outcome = try ArgumentParser.parse(arguments, root: Root.self)
    switch outcome {
    case .help(let helpPath):
      #expect(helpPath.map { $0.configuration.commandName }.joined(separator: " ") == path)
    case .command, .version:
      #expect(path == nil)
    }
  }

  @Test(
    "usage errors, in swift-argument-parser's words",
    arguments: [
      (["--foo"], "Unknown option '--foo'", "tool"),
      (["-x"], "Unknown option '-x'", "tool"),
      (["--port"], "Missing value for '--port <port>'", "tool"),
      (["--port", "--quiet"], "Missing value for '--port <port>'", "tool"),
      (["--port", "http"], "The value 'http' is invalid for '--port <port>'", "tool"),
      (["--port=99999"], "The value '99999' is invalid for '--port <port>'", "tool"),
      (["extra"], "Unexpected argument 'extra'", "tool"),
      (["--quiet=yes"], "Unexpected argument '--quiet=yes'", "tool"),
      (["run"], "Missing expected argument '<command>'", "tool run"),
      (["run", "sh"], "Unexpected argument 'sh'", "tool run"),
      (["add"], "Missing expected argument '<uid>'", "tool add"),
      (["add", "ABCD"], "The value 'ABCD' is invalid for '<uid>'", "tool add"),
      (["help", "nope"], "Unknown command 'nope'", "tool"),
      (["--prot", "1"], "Unknown option '--prot'. Did you mean '--port'?", "tool"),
      (["--version"], "Unknown option '--version'", "tool"),
    ])
  func usageErrors(arguments: [String], message: String, path: String) {
    let error = #expect(throws: UsageError.self) {
      _ = try ArgumentParser.parse(arguments, root: Root.self)
    }
    #expect(error?.message == message)
    #expect(error?.commandPath.joined(separator: " ") == path)
  }

  @Test("a usage error renders as three lines")
  func rendered() {
    let error = #expect(throws: UsageError.self) { _ = try Root.parse(["--foo"]) }
    #expect(
      error?.rendered == """
        Error: Unknown option '--foo'
        Usage: tool [--host <host>] [--port <port>] [--quiet]
          See 'tool --help' for more information.

        """)
  }

  @Test("a ValidationError from init is a usage error of that command")
  func validation() {
    let error = #expect(throws: UsageError.self) { _ = try Root.parse(["add", "BAD"]) }
    #expect(error?.message == "BAD is not allowed")
    #expect(error?.usage == "tool add <uid> ...")
  }

  @Test(
    "reports errors with exit statuses",
    arguments: [
      (ExitCode(3) as any Error, "", Int32(3)),
      (CommandFailure("it broke", hint: "Try again."), "Error: it broke\nTry again.\n", 1),
      (CommandFailure("gone", exitCode: ExitCode(69)), "Error: gone\n", 69),
    ])
  func report(error: any Error, message: String, code: Int32) {
    let (text, status) = Root.report(error)
    #expect(text == message)
    #expect(status == code)
  }
}
