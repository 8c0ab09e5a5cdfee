import ArgumentParsing
import Posix
import TPNSKit

struct Completion: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the completion script for bash, zsh or fish.",
    discussion: """
      The script is generated from the commands' declarations: it completes subcommands, \
      options and their values, files for --from, --store and --cacert, and from the \
      store, 'tpns remove <TAB>' (indexes, shown with their UIDs) and --uid (stored UIDs).
      bash: source <(tpns completion bash), or save it as \
      ~/.local/share/bash-completion/completions/tpns. \
      zsh: save it as _tpns in a directory of $fpath. \
      fish: tpns completion fish > ~/.config/fish/completions/tpns.fish.
      """,
    examples: [
      .init("source <(tpns completion bash)", "Complete tpns in this bash session."),
      .init(
        "tpns completion fish > ~/.config/fish/completions/tpns.fish",
        "Complete tpns in every fish session."),
    ],
    exitStatuses: GenerateManual.printingStatuses)

  @Argument(help: ArgumentHelp("The shell: bash, zsh or fish.", valueName: "shell"))
  var shell: CompletionShell

  func run() throws {
    Console.write(TPNS.completionScript(for: shell), to: 1)
  }
}

/// `tpns __complete indexes|uids [-- WORDS...]`: the words the completion
/// scripts offer from the store (`0<TAB>ABCDEFGHJKLMNPRSTUVW`), or nothing;
/// the command line being completed comes after `--`, for its `--store`.
struct CompletionWords: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "__complete", abstract: "Print completion words from the store.",
    shouldDisplay: false)

  enum Kind: String, CaseIterable, ExpressibleByArgument { case indexes, uids }

  @Argument(help: "What to list: indexes or uids.") var kind: Kind
  @Argument(parsing: .postTerminator, help: "The command line being completed.")
  var words: [String] = []
  @OptionGroup var store: StoreLocation

  /// The store the completed command line names with `--store`, else the usual one.
  var storePath: String? {
    for (index, word) in words.enumerated() {
      if word.hasPrefix("--store=") { return String(word.dropFirst("--store=".count)) }
      if word == "--store", index + 1 < words.count {
        // bash splits `--store=path` into `--store`, `=`, `path`.
        if words[index + 1] == "=", index + 2 < words.count { return words[index + 2] }
        return words[index + 1]
      }
    }
    return store.resolvedPath
  }

  func run() throws {
    guard let path = storePath, let state = try? Store(path: path).load() else { return }
    let lines = state.uids.enumerated().map { kind == .indexes ? "\($0)\t\($1)\n" : "\($1)\n" }
    Console.write(lines.joined(), to: 1)
  }
}
