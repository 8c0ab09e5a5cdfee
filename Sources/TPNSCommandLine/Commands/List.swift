import ArgumentParsing
import Posix
import TPNSKit

struct List: TPNSSubcommand {
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
    let text: [UInt8]
    if options.json {
      let entries = uids.enumerated().map { index, uid in
        OrderedJSON.object(
          [("index", .number(index)), ("uid", .string(uid))]
            + OutcomeFormatting.fields(state.settings(of: uid)))
      }
      let json = OrderedJSON.object([
        ("command", .string("list")), ("store", .string(options.storePath)),
        ("uids", .array(entries)),
      ])
      text = Array((json.rendered + "\n").utf8)
    } else if uids.isEmpty {
      if !options.quiet { runner.output.error("no UIDs stored; add one with 'tpns add <uid>'") }
      return
    } else {
      // A stored UID is 20 letters and digits (the store refuses anything
      // else): only settings need escaping for the terminal.
      var suffixes: [String: String] = [:]
      for (uid, settings) in state.settings where !settings.isEmpty {
        suffixes[uid] = "  " + runner.output.shown(OutcomeFormatting.describe(settings))
      }
      text = Self.lines(of: uids, suffixes: suffixes)
    }
    do {
      try text.withUnsafeBufferPointer { try Console.outputChecked($0) }
    } catch {
      // The write stops at the first piece lost: what was printed is the start of the list.
      throw CommandFailure(
        "the list could not be written to standard output: \(error)",
        hint: "What was printed is the start of the list; make room where the output goes "
          + "(or give the command an open one), then run it again.",
        exitCode: ExitStatus.ioError)
    }
  }

  /// The `index  uid` lines as UTF-8, the index right-aligned to the widest,
  /// each UID followed by its `suffixes` text, if any. One buffer: a `String`
  /// appended to piece by piece costs several times more for a long list.
  static func lines(of uids: [String], suffixes: [String: String] = [:]) -> [UInt8] {
    let width = String(max(uids.count - 1, 0)).count
    let blank = [UInt8](repeating: UInt8(ascii: " "), count: width + 2)
    var text: [UInt8] = []
    text.reserveCapacity(uids.count * (width + 24))
    for (index, uid) in uids.enumerated() {
      // The index's digits, right to left, over `width` spaces and two more.
      text += blank
      var digit = text.count - 3
      var number = index
      repeat {
        text[digit] = UInt8(ascii: "0") + UInt8(number % 10)
        number /= 10
        digit -= 1
      } while number > 0
      var uid = uid
      uid.withUTF8 { text += $0 }
      if !suffixes.isEmpty, var suffix = suffixes[uid] { suffix.withUTF8 { text += $0 } }
      text.append(UInt8(ascii: "\n"))
    }
    return text
  }
}
