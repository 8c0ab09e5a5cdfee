import Testing

@testable import ArgumentParsing

/// A command group shaped like `tpns`: a version, subcommands, nothing of its own.
struct Kit: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "kit", abstract: "Groups things.", version: "1.2.3",
      subcommands: [Push.self, Pull.self])
  }

  init(_ values: ParsedValues) throws {}
  func run() throws {}
}

struct Push: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "push", abstract: "Pushes.",
      options: [
        .option("message", valueName: "text", help: "Free text.", parsing: .unconditional),
        .option(
          "count", valueName: "n", help: "A count.", validate: { Int($0).map { $0 >= 0 } ?? false }
        ),
        .option("offset", valueName: "n", help: "Any number.", validate: { Double($0) != nil }),
        .option("file", valueName: "file", help: "A file, '-' for standard input."),
        .option("tag", valueName: "tag", help: "A tag.", isRepeatable: true),
        .flag("json", help: "JSON."),
      ],
      arguments: [Argument("index", help: "Indexes.", isOptional: true, parsing: .remaining)])
  }

  init(_ values: ParsedValues) throws {}
  func run() throws {}
}

/// A command with an option named by a digit: negative numbers are options there.
struct Pull: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "pull", abstract: "Pulls.",
      options: [.flag("one", short: "1", help: "Just one.")],
      arguments: [Argument("index", help: "Indexes.", isOptional: true, parsing: .remaining)])
  }

  init(_ values: ParsedValues) throws {}
  func run() throws {}
}

@Suite("ArgumentParser: values that start with '-', repeated options, command groups")
struct CommandGroupParsingTests {
  static func values(_ arguments: [String]) throws -> ParsedValues {
    guard case .command(_, let values) = try ArgumentParser.parse(arguments, root: Kit.self) else {
      Issue.record("expected a command")
      return ParsedValues()
    }
    return values
  }

  @Test(
    "an option's value may start with '-': '-' alone, a negative number, or anything for an unconditional option",
    arguments: [
      (["push", "--file", "-"], "file", "-"),
      (["push", "--file=-"], "file", "-"),
      (["push", "--offset", "-5"], "offset", "-5"),
      (["push", "--offset", "-1.5"], "offset", "-1.5"),
      (["push", "--message", "-10 degrees"], "message", "-10 degrees"),
      (["push", "--message", "--json"], "message", "--json"),
      (["push", "--message", "-h"], "message", nil),
      (["push", "--message", ""], "message", ""),
    ] as [([String], String, String?)])
  func dashValues(arguments: [String], option: String, value: String?) throws {
    let outcome = try ArgumentParser.parse(arguments, root: Kit.self)
    switch outcome {
    case .command(_, let values):
      #expect(values.value(option) == value)
      #expect(!values.flag("json"))
    case .help:
      // Help wins, as in swift-argument-parser, even over an unconditional value.
      #expect(value == nil)
    case .version:
      Issue.record("unexpected version")
    }
  }

  @Test(
    "a positional value may be '-' or a negative number, unless an option is named by a digit",
    arguments: [
      (["push", "-1", "-", "2"], ["-1", "-", "2"]),
      (["push", "--", "-x"], ["-x"]),
      (["pull", "-", "3"], ["-", "3"]),
    ])
  func dashPositionals(arguments: [String], indexes: [String]) throws {
    #expect(try Self.values(arguments).argument("index") == indexes)
  }

  @Test("where an option is named by a digit, '-1' is that option")
  func digitOption() throws {
    let values = try Self.values(["pull", "-1"])
    #expect(values.flag("one"))
    #expect(values.argument("index") == [])
  }

  @Test("a repeatable option keeps every value in order; another keeps the last")
  func repeated() throws {
    let values = try Self.values(["push", "--tag", "a", "--tag=b", "--file", "x", "--file", "y"])
    #expect(values.values("tag") == ["a", "b"])
    #expect(values.value("tag") == "b")
    #expect(values.value("file") == "y")
    #expect(try Self.values(["push"]).values("tag") == [])
  }

  @Test(
    "usage errors: missing and invalid values, unknown commands and options with the nearest suggested",
    arguments: [
      (["push", "--count", "-5"], "The value '-5' is invalid for '--count <n>'", "kit push"),
      (["push", "--count", "--json"], "Missing value for '--count <n>'", "kit push"),
      (["push", "--file", "--json"], "Missing value for '--file <file>'", "kit push"),
      (["push", "--file", "-x"], "Missing value for '--file <file>'", "kit push"),
      (["push", "--message"], "Missing value for '--message <text>'", "kit push"),
      (["push", "--jsn"], "Unknown option '--jsn'. Did you mean '--json'?", "kit push"),
      (["push", "--frobnicate"], "Unknown option '--frobnicate'", "kit push"),
      (["push", "--version"], "Unknown option '--version'", "kit push"),
      (["frob"], "Unknown command 'frob'", "kit"),
      (["pus"], "Unknown command 'pus'. Did you mean 'push'?", "kit"),
      (["pul", "x"], "Unknown command 'pul'. Did you mean 'pull'?", "kit"),
      (["-5"], "Unknown command '-5'", "kit"),
      (["--json"], "Unknown option '--json'", "kit"),
      (["help", "pusj"], "Unknown command 'pusj'. Did you mean 'push'?", "kit"),
    ])
  func usageErrors(arguments: [String], message: String, path: String) {
    let error = #expect(throws: UsageError.self) {
      _ = try ArgumentParser.parse(arguments, root: Kit.self)
    }
    #expect(error?.message == message)
    #expect(error?.commandPath.joined(separator: " ") == path)
  }

  @Test("an unknown command's usage line is the group's: kit <subcommand>")
  func unknownCommandRendered() {
    let error = #expect(throws: UsageError.self) { _ = try Kit.parse(["lst"]) }
    #expect(
      error?.rendered == """
        Error: Unknown command 'lst'
        Usage: kit <subcommand>
          See 'kit --help' for more information.

        """)
  }

  @Test(
    "--version prints the root's version; alone, a group shows its help",
    arguments: [(["--version"], "version"), ([], "help"), (["push", "-h"], "help")])
  func versionAndHelp(arguments: [String], kind: String) throws {
    switch try Kit.parse(arguments) {
    case .version(let version): #expect(kind == "version" && version == "1.2.3")
    case .help(let text): #expect(kind == "help" && text.contains("USAGE: kit"))
    case .run: Issue.record("unexpected command")
    }
  }

  @Test("a CommandFailure's output is what is written on stdout by default")
  func failureOutput() {
    let failure = CommandFailure("broke", exitCode: ExitCode(66), output: "{\"ok\":false}\n")
    #expect(Kit.output(for: failure, command: nil, arguments: []) == "{\"ok\":false}\n")
    #expect(Kit.output(for: CommandFailure("broke"), command: nil, arguments: []) == nil)
  }
}

@Suite struct EditDistanceTests {
  @Test(
    "Levenshtein distance",
    arguments: [
      ("kitten", "sitting", 3), ("lst", "list", 1), ("", "abc", 3), ("same", "same", 0),
      ("lsit", "list", 2),
    ])
  func distance(from: String, to: String, expected: Int) {
    #expect(from.editDistance(to: to) == expected)
    #expect(to.editDistance(to: from) == expected)
  }

  @Test(
    "the nearest candidate, if close enough for its length",
    arguments: [
      ("regster", "register"), ("stauts", "status"), ("lst", "list"), ("ad", "add"),
      ("foo", nil), ("x", nil), ("frobnicate", nil),
    ] as [(String, String?)])
  func nearest(text: String, expected: String?) {
    let commands = ["register", "add", "remove", "list", "sync", "status", "event", "watch"]
    #expect(text.nearest(among: commands) == expected)
  }
}
