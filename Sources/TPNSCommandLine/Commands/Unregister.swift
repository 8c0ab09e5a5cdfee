import ArgumentParsing
import TPNSKit

/// `tpns unregister [--uid UID]...`: removes the UIDs, then sends `cmd=unreg_mapping`.
struct Unregister: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "unregister",
      abstract: "Remove this phone's mappings at the server (cmd=unreg_mapping).",
      discussion: """
        Without --uid: every UID is removed from the list, with its settings, and one \
        cmd=unreg_mapping without a uid removes all of this phone's mappings at the server, \
        whatever it holds. With --uid: those UIDs only, one cmd=unreg_mapping each (a UID \
        no longer stored that the server in use still holds is sent again). The token \
        stays registered; 'tpns add' maps UIDs again.
        """,
      options: [
        .option(
          "uid", valueName: "uid", help: "Remove only this UID (repeatable).",
          isRepeatable: true, validate: { !$0.isEmpty })
      ] + GlobalOptions.sendingToken)
  }

  let uids: [String]
  let options: GlobalOptions

  init(_ values: ParsedValues) throws {
    uids = values.values("uid")
    options = try GlobalOptions(values, environment: ProcessEnvironment.current)
  }

  func run() throws {
    let runner = Runner(command: "unregister", options: options)
    // The pipeline checks every UID before the store is read.
    try runner.run(.init(unmappings: .just(.unregister(uids))))
  }
}
