import ArgumentParsing
import Posix
import TPNSKit

/// `tpns list`: prints the stored UIDs with their indexes.
struct List: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show the stored UIDs with their indexes, and each one's settings.",
    examples: [
      .init(
        "tpns list --json | jq -r '.uids[].uid'",
        "Print the UIDs alone, one a line.")
    ],
    exitStatuses: GenerateManual.readingStatuses)

  @OptionGroup var listing: ListingOptions

  var options: GlobalOptions { listing.resolved }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    let state = try runner.loadStore()
    let uids = state.uids
    if options.json {
      Console.line(
        OrderedJSON.object([
          ("command", .string("list")), ("store", .string(options.storePath)),
          (
            "uids",
            .array(
              uids.enumerated().map {
                .object(
                  [("index", .number($0.offset)), ("uid", .string($0.element))]
                    + OutcomeFormatting.fields(state.settings(of: $0.element)))
              })
          ),
        ]).rendered)
      return
    }
    if uids.isEmpty {
      if !options.quiet { runner.output.error("no UIDs stored; add one with 'tpns add <uid>'") }
      return
    }
    let width = String(uids.count - 1).count
    var text = ""
    text.reserveCapacity(uids.count * (width + 24))
    for (index, uid) in uids.enumerated() {
      let number = String(index)
      text += String(repeating: " ", count: width - number.count) + number + "  " + uid
      if let settings = state.settings[uid], !settings.isEmpty {
        text += "  " + OutcomeFormatting.describe(settings)
      }
      text += "\n"
    }
    runner.output.block(String(text.dropLast()))
  }
}
