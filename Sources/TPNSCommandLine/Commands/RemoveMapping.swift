import ArgumentParsing
import TPNSKit
import TPNSProtocol

struct RemoveMapping: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    commandName: "rm-mapping",
    abstract: "Remove one UID from the list and send its removal alone (cmd=rm_mapping).",
    discussion: """
      The UID and its settings are removed from the store as 'tpns remove --uid' removes \
      them, then cmd=rm_mapping is sent for it in place of a mapsync. A UID no longer \
      stored that the server in use still holds is sent again; one neither stored nor \
      held there is an error, and nothing is sent.
      """,
    examples: [
      .init(
        "tpns rm-mapping ABCDEFGHJKLMNPRSTUVW",
        "Remove one UID and send its removal alone (cmd=rm_mapping).")
    ])

  @Argument(help: "A 20-character device UID.", completion: .custom("uids")) var uid: String
  @OptionGroup var sending: TokenSendingOptions

  var options: GlobalOptions { sending.resolved }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    try runner.run(.init(unmappings: .just(.removeMapping(uid))))
  }
}
