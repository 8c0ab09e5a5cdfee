import Testing

@testable import ArgumentParsing

@Suite("ArgumentParser")
struct ArgumentParserTests {
  @Test("options, flags and defaults, typed")
  func options() throws {
    let root = try #require(
      try parsed(Root.self, ["--port", "80", "-q", "--host=::1"], root: Root.self))
    #expect(root.port == 80)
    #expect(root.host == "::1")
    #expect(root.quiet)
    let defaults = try #require(try parsed(Root.self, [], root: Root.self))
    #expect(defaults.port == 7380)
    #expect(defaults.host == "127.0.0.1")
    #expect(!defaults.quiet)
    #expect(try parsed(Root.self, ["-p", "1", "--port", "2"], root: Root.self)?.port == 2)
  }

  @Test("short names run together: flags, and an option last that takes the next argument")
  func combinedShortNames() throws {
    let root = try #require(try parsed(Root.self, ["-qp", "80"], root: Root.self))
    #expect(root.quiet)
    #expect(root.port == 80)
    // An option before the last letter has no value of its own: not a run of flags.
    let error = #expect(throws: UsageError.self) {
      _ = try Root.parse(["-pq", "80"], environment: [:])
    }
    #expect(error?.message == "Unknown option '-pq'")
  }

  @Test("a subcommand, and everything after -- as its argument")
  func terminator() throws {
    let run = try #require(
      try parsed(Run.self, ["run", "--quiet", "--", "sh", "-c", "exit 3", "--"], root: Root.self))
    #expect(run.quiet)
    #expect(run.command == ["sh", "-c", "exit 3", "--"])
  }

  @Test("remaining positional values")
  func remaining() throws {
    #expect(try parsed(Add.self, ["add", "ABC", "DEF"], root: Root.self)?.uids == ["ABC", "DEF"])
  }

  @Test(
    "help is asked for",
    arguments: [
      (["--help"], "tool"), (["-h"], "tool"), (["--port", "x", "-h"], "tool"),
      (["run", "--help"], "tool run"), (["help", "run"], "tool run"), (["help"], "tool"),
      (["help", "help"], "tool"), (["help", "--help"], "tool"),
      (["help", "run", "-h"], "tool run"), (["help", "--", "run"], "tool run"),
      (["help", "run", "an-argument"], "tool run"),
      (["help", "run", "--verbose"], "tool run"),
      (["run", "--", "--help"], nil),
    ])
  func help(arguments: [String], path: String?) throws {
    let outcome = try ArgumentParser.parse(arguments, root: Root.self, environment: { _ in nil })
    switch outcome {
    case .help(let helpPath):
      #expect(helpPath.map { $0.commandName }.joined(separator: " ") == path)
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
      (
        ["--port", "http"],
        "The value 'http' is invalid for '--port <port>': it must be a whole number from 0 to 65535",
        "tool"
      ),
      (
        ["--port=99999"],
        "The value '99999' is invalid for '--port <port>': it must be a whole number from 0 to 65535",
        "tool"
      ),
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
    let error = #expect(throws: UsageError.self) { _ = try Root.parse(arguments, environment: [:]) }
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

  @Test("a ValidationError from validate() is a usage error of that command")
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
    let report = Root.report(error, command: nil, arguments: [])
    #expect(report.message == message)
    #expect(report.exitCode.rawValue == code)
  }

  @Test(
    "a property's name gives its option's: kebab case",
    arguments: [
      ("portFile", "port-file"), ("requireHTTPS", "require-https"), ("db", "db"),
      ("showToken", "show-token"), ("allowTokenInURL", "allow-token-in-url"),
    ])
  func kebabCase(property: String, option: String) {
    #expect(property.kebabCased == option)
  }
}
