import Foundation
import TPNSTestSupport
import Testing

/// What `tpns` says about itself: usage, unknown commands, each command's
/// options.
@Suite struct HelpTests {
  static let tpns = TPNSProcess(
    store: "/nonexistent/state.plist", server: "http://127.0.0.1:1/tpns")

  /// The labels of the `OPTIONS:` section of `help`.
  static func options(_ help: String) -> [String] {
    guard let section = help.components(separatedBy: "\nOPTIONS:\n").last else { return [] }
    return section.split(separator: "\n").prefix { !$0.isEmpty }
      .filter { $0.hasPrefix("  -") }
      .map { String($0.dropFirst(2).prefix { $0 != " " }) }
      .map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
  }

  @Test(
    "tpns alone, --help and help print the group's help: usage 'tpns <subcommand>'",
    arguments: [[], ["--help"], ["help"], ["-h"]])
  func rootHelp(arguments: [String]) throws {
    let result = try Self.tpns.run(arguments)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout.contains("\nUSAGE: tpns <subcommand>\n\nOPTIONS:\n"))
    #expect(result.stdout.contains("\n  --version               Show the version.\n"))
    #expect(result.stdout.contains("\nSUBCOMMANDS:\n  register "))
  }

  @Test("--version prints the version and the libcurl it runs on")
  func version() throws {
    let result = try Self.tpns.run(["--version"])
    #expect(result.status == 0)
    let parts = result.stdout.split(separator: " ")
    #expect(parts.first?.split(separator: ".").count == 3)
    #expect(result.stdout.contains(" (libcurl 7.") || result.stdout.contains(" (libcurl 8."))
    #expect(result.stdout.hasSuffix(")\n"))
  }

  @Test(
    "an unknown command is named as one, with the nearest command when one is near",
    arguments: [
      ("lst", "Unknown command 'lst'. Did you mean 'list'?"),
      ("regster", "Unknown command 'regster'. Did you mean 'register'?"),
      ("frobnicate", "Unknown command 'frobnicate'"),
    ])
  func unknownCommand(name: String, message: String) throws {
    let result = try Self.tpns.run([name, "x"])
    #expect(
      result
        == .init(
          status: 64, stdout: "",
          stderr:
            "Error: \(message)\nUsage: tpns <subcommand>\n  See 'tpns --help' for more information.\n"
        ))
  }

  @Test("an unknown option suggests the nearest one")
  func unknownOption() throws {
    let result = try Self.tpns.run(["add", "--jsn", "ABCDEFGHJKLMNPRSTUVW"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: Unknown option '--jsn'. Did you mean '--json'?\n"))
  }

  @Test(
    "each command offers only the options it uses",
    arguments: [
      ("list", ["--store", "--json", "-q", "--color", "-h"]),
      ("status", ["--server", "--store", "--json", "--show-token", "--color", "-h"]),
      (
        "sync",
        [
          "--server", "--store", "--json", "-q", "-v", "--timeout", "--method",
          "--require-https", "--cacert", "--show-token", "--color", "--allow-token-in-url", "-h",
        ]
      ),
      // ui draws a screen: no --json, -q or -v, whose lines it has no room for.
      (
        "ui",
        [
          "--server", "--store", "--timeout", "--method", "--require-https", "--cacert",
          "--show-token", "--color", "--allow-token-in-url", "-h",
        ]
      ),
    ])
  func commandOptions(command: String, labels: [String]) throws {
    let result = try Self.tpns.run(["help", command])
    #expect(result.status == 0)
    #expect(Self.options(result.stdout) == labels)
  }

  @Test(
    "list and status refuse the network options they would ignore",
    arguments: [
      ["list", "--server", "http://x/tpns"], ["list", "--timeout", "3"],
      ["status", "--cacert", "f"],
      ["status", "--method", "get"], ["list", "-v"],
    ])
  func refusedOptions(arguments: [String]) throws {
    let result = try Self.tpns.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: Unknown option '\(arguments[1])'"))
  }

  @Test("--store's help names both defaults: XDG_CONFIG_HOME's and ~/.config's")
  func storeHelp() throws {
    let result = try Self.tpns.run(["list", "--help"])
    let flattened = result.stdout.split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    #expect(
      flattened.contains(
        "The state file. (env TPNS_STORE; default: $XDG_CONFIG_HOME/tpns/state.plist, or "
          + "~/.config/tpns/state.plist without XDG_CONFIG_HOME)"))
  }
}
