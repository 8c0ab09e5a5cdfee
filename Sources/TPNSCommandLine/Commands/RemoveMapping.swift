import ArgumentParsing
import TPNSKit

/// `tpns rm-mapping <uid>`: removes one UID, then sends `cmd=rm_mapping` for it.
struct RemoveMapping: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "rm-mapping",
      abstract: "Remove one UID from the list and send its removal alone (cmd=rm_mapping).",
      discussion: """
        The UID and its settings are removed from the store as 'tpns remove --uid' removes \
        them, then cmd=rm_mapping is sent for it in place of a mapsync. A UID no longer \
        stored that the server in use still holds is sent again; one neither stored nor \
        held there is an error, and nothing is sent.
        """,
      options: GlobalOptions.sendingToken,
      arguments: [Argument("uid", help: "A 20-character device UID.")])
  }

  let uid: String
  let options: GlobalOptions

  init(_ values: ParsedValues) throws {
    uid = values.argument("uid").first ?? ""
    options = try GlobalOptions(values, environment: ProcessEnvironment.current)
  }

  func run() throws {
    let runner = Runner(command: "rm-mapping", options: options)
    // The pipeline checks the UID before the store is read.
    try runner.run(.init(unmappings: .just(.removeMapping(uid))))
  }
}
