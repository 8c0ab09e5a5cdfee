import Testing

@testable import ArgumentParsing

@Suite("ArgumentParser: values that start with '-', repeated options, command groups")
struct CommandGroupParsingTests {
  static func push(_ arguments: [String]) throws -> Push {
    try #require(try parsed(Push.self, arguments))
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
    switch try Kit.parse(arguments, environment: [:]) {
    case .run(let command):
      let push = try #require(command as? Push)
      let values = [
        "file": push.file, "offset": push.offset.map { "\($0)" }, "message": push.message,
      ]
      #expect(values[option] == value.map { option == "offset" ? "\(Double($0)!)" : $0 })
      #expect(!push.json)
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
    let command = try #require(try Kit.parse(arguments, environment: [:]).command)
    #expect(((command as? Push)?.indexes ?? (command as? Pull)?.indexes) == indexes)
  }

  @Test(
    "after '--', a single argument takes a value that looks like an option; a second is unexpected",
    arguments: [
      (["send", "--", "--sandbox"], "--sandbox"),
      (["send", "--sandbox", "--", "-T"], "-T"),
    ])
  func terminatorSingle(arguments: [String], token: String) throws {
    #expect(try parsed(Send.self, arguments)?.token == token)
  }

  @Test("after '--', a value no argument takes is unexpected")
  func terminatorExtra() {
    #expect(throws: UsageError.self) { try Kit.parse(["send", "T", "--", "U"], environment: [:]) }
  }

  @Test("where an option is named by a digit, '-1' is that option")
  func digitOption() throws {
    let pull = try #require(try parsed(Pull.self, ["pull", "-1"]))
    #expect(pull.one)
    #expect(pull.indexes == [])
  }

  @Test("a repeatable option keeps every value in order; another keeps the last")
  func repeated() throws {
    let push = try Self.push(["push", "--tag", "a", "--tag=b", "--file", "x", "--file", "y"])
    #expect(push.tags == ["a", "b"])
    #expect(push.file == "y")
    #expect(try Self.push(["push"]).tags == [])
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
      _ = try Kit.parse(arguments, environment: [:])
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
    #expect(Kit.report(failure, command: nil, arguments: []).output == "{\"ok\":false}\n")
    #expect(Kit.report(CommandFailure("broke"), command: nil, arguments: []).output == nil)
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

extension CommandLineOutcome {
  /// The command to run, if that is the outcome.
  var command: (any ParsableCommand)? {
    if case .run(let command) = self { return command }
    return nil
  }
}

@Suite("ArgumentParser: groups, environment, inverted flags, typed values")
struct DeclarationTests {
  @Test(
    "an option not given takes its environment variable, then its default",
    arguments: [
      ([], [:], "http://default/"),
      ([], ["KIT_SERVER": "https://env/"], "https://env/"),
      (["--server", "https://arg/"], ["KIT_SERVER": ""], "https://arg/"),
      (["--server", "https://arg/"], ["KIT_SERVER": "https://env/"], "https://arg/"),
    ] as [([String], [String: String], String)])
  func environment(arguments: [String], environment: [String: String], server: String) throws {
    let send = try #require(
      try parsed(Send.self, ["send", "T"] + arguments, environment: environment))
    #expect(send.destination.server == server)
  }

  @Test(
    "a flag's environment variable is 1/true/yes/on or 0/false/no/off; anything else is 64",
    arguments: [
      ("1", true), ("yes", true), ("ON", true), ("0", false), ("", false), ("off", false),
    ])
  func environmentFlag(value: String, secure: Bool) throws {
    let send = try #require(
      try parsed(
        Send.self, ["send", "T", "--server", "https://x/"], environment: ["KIT_SECURE": value]))
    #expect(send.destination.secure == secure)
  }

  @Test("an unreadable environment value is a usage error naming the variable")
  func environmentErrors() {
    let flag = #expect(throws: UsageError.self) {
      _ = try Kit.parse(["send", "T"], environment: ["KIT_SECURE": "maybe"])
    }
    #expect(
      flag?.message
        == "KIT_SECURE must be 1, true, yes or on (or 0, false, no, off or empty), got \"maybe\"")
    // Set but empty is a mistake, not the default (a flag's empty is off, above).
    let empty = #expect(throws: UsageError.self) {
      _ = try Kit.parse(["send", "T"], environment: ["KIT_SERVER": ""])
    }
    #expect(
      empty?.message
        == "KIT_SERVER is set but empty: set it to a valid '--server <url>', or unset it for the "
        + "default")
  }

  @Test("a group's validate() runs: its error is the command's usage error")
  func groupValidation() {
    let error = #expect(throws: UsageError.self) {
      _ = try Kit.parse(["send", "T", "--secure"], environment: [:])
    }
    #expect(error?.message == "http:// is not secure")
    #expect(error?.commandPath == ["kit", "send"])
  }

  @Test(
    "an inverted flag: given, inverted, or neither (nil)",
    arguments: [(["--sandbox"], true), (["--no-sandbox"], false), ([], nil)] as [([String], Bool?)])
  func inversion(arguments: [String], sandbox: Bool?) throws {
    #expect(try parsed(Send.self, ["send", "T"] + arguments)?.sandbox == sandbox)
  }

  @Test("both forms of an inverted flag are a usage error")
  func inversionConflict() {
    let error = #expect(throws: UsageError.self) {
      _ = try Kit.parse(["send", "T", "--sandbox", "--no-sandbox"], environment: [:])
    }
    #expect(error?.message == "--sandbox and --no-sandbox cannot be used together")
  }

  @Test("an environment-only value is read, and validate() sees it")
  func environmentOnly() throws {
    let send = try #require(try parsed(Send.self, ["send"], environment: ["KIT_TOKEN": "E"]))
    #expect(send.environmentToken == "E")
    #expect(send.token == nil)
    let error = #expect(throws: UsageError.self) { _ = try Kit.parse(["send"], environment: [:]) }
    #expect(error?.message == "Missing expected argument '<token>' (or KIT_TOKEN)")
  }

  @Test(
    "an enumeration is a typed value, any case; another word is invalid",
    arguments: [("post", Destination.Method.post), ("GET", .get), ("get", .get)])
  func enumeration(text: String, method: Destination.Method) throws {
    #expect(try parsed(Send.self, ["send", "T", "--method", text])?.destination.method == method)
  }

  @Test("an enumeration's help lists nothing by itself, and its default shows its raw value")
  func enumerationHelp() throws {
    guard case .help(let text) = try Kit.parse(["help", "send"], environment: [:]) else {
      Issue.record("expected help")
      return
    }
    #expect(
      text.contains(
        "--server <url>          The server. (env KIT_SERVER; default: http://default/)"))
    #expect(text.contains("--method <method>       post or get. (default: post)"))
    #expect(text.contains("--sandbox/--no-sandbox  Use the sandbox."))
    #expect(text.contains("ENVIRONMENT:\n  KIT_TOKEN               The token."))
    #expect(Destination.Method.allValueStrings == ["post", "get"])
  }
}
