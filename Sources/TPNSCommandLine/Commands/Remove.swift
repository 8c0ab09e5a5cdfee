import ArgumentParsing
import TPNSKit

/// `tpns remove <index>...`: removes entries, then sends the whole list.
struct Remove: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "remove",
      abstract: "Remove UIDs from the list by index (as 'tpns list' prints them) and send it.",
      discussion:
        "All indexes refer to the list as it is now; if one is out of range, nothing is removed.",
      options: [
        .option(
          "uid", valueName: "uid", help: "Remove this UID instead of an index.",
          validate: { !$0.isEmpty }),
        .flag("no-sync", help: "Only store the change; send it later with 'tpns sync'."),
      ] + GlobalOptions.options,
      arguments: [
        Argument(
          "index", help: "A 0-based index.", isOptional: true, parsing: .remaining,
          validate: { Int($0) != nil })
      ])
  }

  let removals: [SyncViewModel.Removal]
  let sync: Bool
  let options: GlobalOptions

  init(_ values: ParsedValues) throws {
    var removals = values.argument("index").compactMap(Int.init).map(SyncViewModel.Removal.index)
    if let uid = values.value("uid") { removals.append(.uid(uid)) }
    if removals.isEmpty { throw ValidationError("Missing expected argument '<index>'") }
    self.removals = removals
    sync = !values.flag("no-sync")
    options = try GlobalOptions(values, environment: ProcessEnvironment.current)
  }

  func run() throws {
    try Runner(command: "remove", options: options)
      .run(.init(removals: .just(removals)), syncsChanges: sync)
  }
}
