import ArgumentParsing
import TPNSKit

/// `tpns remove <index>...`: removes entries, then sends the whole list.
struct Remove: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "remove",
      abstract: "Remove UIDs from the list by index (as 'tpns list' prints them) and send it.",
      discussion: """
        All indexes and UIDs refer to the list as it is now; if one is not in it, nothing is \
        removed.
        """,
      options: [
        .option(
          "uid", valueName: "uid", help: "Remove this UID (repeatable), as well as the indexes.",
          isRepeatable: true, validate: { !$0.isEmpty }),
        .flag("no-sync", help: "Only store the change; send it later with 'tpns sync'."),
      ] + GlobalOptions.sendingToken,
      arguments: [
        Argument("index", help: "A 0-based index.", isOptional: true, parsing: .remaining)
      ])
  }

  let indexes: [String]
  let uids: [String]
  let sync: Bool
  let options: GlobalOptions

  init(_ values: ParsedValues) throws {
    indexes = values.argument("index")
    uids = values.values("uid")
    if indexes.isEmpty, uids.isEmpty {
      throw ValidationError("Missing expected argument '<index>'")
    }
    sync = !values.flag("no-sync")
    options = try GlobalOptions(values, environment: ProcessEnvironment.current)
  }

  func run() throws {
    let runner = Runner(command: "remove", options: options)
    // An index that is not a whole number from 0 is bad data, as one out of range is.
    var removals: [SyncViewModel.Removal] = []
    for text in indexes {
      guard let index = Int(text), index >= 0 else {
        throw runner.fail(
          "invalid index '\(text)': an index is a whole number from 0, as 'tpns list' prints it",
          hint: ExitStatus.of(.invalidIndex(0, count: 0)).hint, code: ExitStatus.dataError)
      }
      removals.append(.index(index))
    }
    removals += uids.map(SyncViewModel.Removal.uid)
    try runner.run(.init(removals: .just(removals)), syncsChanges: sync)
  }
}
