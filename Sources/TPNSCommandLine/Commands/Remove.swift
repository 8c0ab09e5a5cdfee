import ArgumentParsing
import TPNSKit

struct Remove: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    abstract: "Remove UIDs from the list by index (as 'tpns list' prints them) and send it.",
    discussion: """
      All indexes and UIDs refer to the list as it is now; if one is not in it, nothing is \
      removed.
      """,
    examples: [
      .init(
        "tpns remove 0 2",
        "Remove the first and third UIDs, as tpns list numbers them."),
      .init(
        "tpns remove --uid ABCDEFGHJKLMNPRSTUVW",
        "Remove a UID by its value."),
    ])

  @Argument(
    help: ArgumentHelp("A 0-based index.", valueName: "index"), completion: .custom("indexes"))
  var indexes: [String] = []
  @Option(
    name: .customLong("uid"),
    help: ArgumentHelp("Remove this UID (repeatable), as well as the indexes.", valueName: "uid"),
    completion: .custom("uids"))
  var uids: [String] = []
  @Flag(
    name: .customLong("no-sync"), help: "Only store the change; send it later with 'tpns sync'.")
  var noSync = false
  @OptionGroup var sending: TokenSendingOptions

  var sync: Bool { !noSync }
  var options: GlobalOptions { sending.resolved }

  func validate() throws {
    if indexes.isEmpty, uids.isEmpty {
      throw ValidationError("Missing expected argument '<index>'")
    }
  }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
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
