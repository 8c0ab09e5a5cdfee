import Testing

@testable import ArgumentParsing

@Suite("HelpGenerator")
struct HelpGeneratorTests {
  @Test("root help in swift-argument-parser's layout")
  func root() throws {
    guard case .help(let text) = try Root.parse(["--help"]) else {
      Issue.record("expected help")
      return
    }
    #expect(
      text == """
        OVERVIEW: Does things.

        USAGE: tool [--host <host>] [--port <port>] [--quiet]

        OPTIONS:
          --host <host>           The host. (default: 127.0.0.1)
          -p, --port <port>       The port. (default: 7380)
          -q, --quiet             Say less.
          -h, --help              Show help information.

        SUBCOMMANDS:
          run                     Runs a command.
          add                     Adds UIDs.

          See 'tool help <subcommand>' for detailed help.

        """)
  }

  @Test("subcommand help shows its arguments")
  func subcommand() throws {
    guard case .help(let text) = try Root.parse(["help", "run"]) else {
      Issue.record("expected help")
      return
    }
    #expect(
      text == """
        OVERVIEW: Runs a command.

        USAGE: tool run [--quiet] -- <command> ...

        ARGUMENTS:
          <command>               The command.

        OPTIONS:
          --quiet                 Say less.
          -h, --help              Show help information.

        """)
  }

  @Test("a group's help: usage 'kit <subcommand>', --version before --help")
  func group() throws {
    guard case .help(let text) = try Kit.parse(["--help"]) else {
      Issue.record("expected help")
      return
    }
    #expect(
      text == """
        OVERVIEW: Groups things.

        USAGE: kit <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          push                    Pushes.
          pull                    Pulls.
          send                    Sends.

          See 'kit help <subcommand>' for detailed help.

        """)
  }

  @Test("a repeatable option shows as [--tag <tag> ...] in the usage")
  func repeatable() {
    #expect(
      HelpGenerator.usage(for: [Kit.self, Push.self])
        == "kit push [--message <text>] [--count <n>] [--offset <n>] [--file <file>] "
        + "[--tag <tag> ...] [--json] [<index> ...]")
    #expect(
      HelpGenerator.usage(for: [Kit.self, Send.self])
        == "kit send [--server <url>] [--method <method>] [--secure] [--sandbox|--no-sandbox] "
        + "[<token>]")
  }

  @Test("a label wider than the column puts its help on the next line")
  func wideLabel() {
    struct Wide: ParsableCommand {
      @Option(
        help: ArgumentHelp(
          "Help that is long enough to wrap past the eightieth column of the screen.",
          valueName: "value"))
      var aVeryLongOptionName: String?
      func run() throws {}
    }
    let text = HelpGenerator.help(for: [Wide.self])
    #expect(
      text.contains(
        """
          --a-very-long-option-name <value>
                                  Help that is long enough to wrap past the eightieth
                                  column of the screen.
        """))
  }
}
