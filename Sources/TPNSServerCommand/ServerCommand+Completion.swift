import ArgumentParsing
import Posix

extension ServerCommand {
  /// `tpns-server completion bash|zsh|fish`: prints the shell's completion script.
  struct Completion: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print the completion script for bash, zsh or fish.",
      discussion: """
        bash: source <(tpns-server completion bash). zsh: save it as _tpns-server in a \
        directory of $fpath. fish: tpns-server completion fish | source.
        """,
      exitStatuses: [
        .init(0, "Done."), .init(64, "Usage: an unknown shell, option or value."),
        .init(74, "Standard output could not be written (a full disk, say)."),
      ])

    @Argument(help: ArgumentHelp("The shell: bash, zsh or fish.", valueName: "shell"))
    var shell: CompletionShell

    func run() throws {
      Console.write(ServerCommand.completionScript(for: shell), to: 1)
    }
  }
}
