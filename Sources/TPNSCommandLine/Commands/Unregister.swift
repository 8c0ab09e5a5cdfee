import ArgumentParsing
import TPNSKit
import TPNSProtocol

struct Unregister: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    abstract: "Remove this phone's mappings at the server (cmd=unreg_mapping).",
    discussion: """
      Without --uid: every UID is removed from the list, with its settings, and one \
      cmd=unreg_mapping without a uid removes all of this phone's mappings at the server, \
      whatever it holds. With --uid: those UIDs only, one cmd=unreg_mapping each (a UID \
      no longer stored that the server in use still holds is sent again). The token \
      stays registered; 'tpns add' maps UIDs again.
      """,
    examples: [
      .init(
        "tpns unregister",
        "Remove every UID, and all of this phone's mappings at the server.")
    ])

  @Option(
    name: .customLong("uid"),
    help: ArgumentHelp("Remove only this UID (repeatable).", valueName: "uid"),
    completion: .custom("uids"))
  var uids: [String] = []
  @OptionGroup var sending: TokenSendingOptions

  var options: GlobalOptions { sending.resolved }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    try runner.run(.init(unmappings: .just(.unregister(uids))))
  }
}
