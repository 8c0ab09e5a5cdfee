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
    // Built as bytes and written at once: 10,000 lines as `String`s cost
    // more than reading the store. A stored UID is 20 letters and digits
    // (the store refuses anything else), so only settings need escaping.
    // Each line's settings, for the UIDs that have some (most stores: none).
    var suffixes: [String: [UInt8]] = [:]
    for (uid, settings) in state.settings where !settings.isEmpty {
      suffixes[uid] = Array(("  " + runner.output.shown(OutcomeFormatting.describe(settings))).utf8)
    }
    Console.output(
      Self.lines(of: uids, width: String(uids.count - 1).utf8.count, suffixes: suffixes))
  }

  /// `index  uid` lines, the index right-aligned in `width` columns, each
  /// followed by its UID's bytes in `suffixes` if any, written into one
  /// buffer of their exact size (no append per piece: for 10,000 UIDs those
  /// were a fifth of `tpns list`).
  static func lines(of uids: [String], width: Int, suffixes: [String: [UInt8]] = [:]) -> [UInt8] {
    // Through the array's buffer: a `for` over the array retains and
    // releases each string (a third of this function, for 10,000 UIDs).
    uids.withUnsafeBufferPointer { uids in lines(of: uids, width: width, suffixes: suffixes) }
  }

  private static func lines(
    of uids: UnsafeBufferPointer<String>, width: Int, suffixes: [String: [UInt8]]
  ) -> [UInt8] {
    var size = suffixes.values.reduce(0) { $0 + $1.count }
    for index in uids.indices { size += width + 3 + uids[index].utf8.count }
    return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      // The index as decimal digits, counted up in place (no division per
      // line), copied with the UID by memcpy: pointers, not subscripts.
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: width) { digits in
        digits.initialize(repeating: UInt8(ascii: " "))
        digits[width - 1] = UInt8(ascii: "0")
        var at = buffer.baseAddress!
        for index in uids.indices {
          let uid = uids[index]
          at.update(from: digits.baseAddress!, count: width)
          at[width] = UInt8(ascii: " ")
          at[width + 1] = UInt8(ascii: " ")
          at += width + 2
          let copied = uid.utf8.withContiguousStorageIfAvailable { bytes in
            at.update(from: bytes.baseAddress!, count: bytes.count)
            return bytes.count
          }
          if let copied {
            at += copied
          } else {
            for byte in uid.utf8 {
              at.pointee = byte
              at += 1
            }
          }
          // No UID is hashed to find no settings when there are none.
          if !suffixes.isEmpty, let suffix = suffixes[uid] {
            at.update(from: suffix, count: suffix.count)
            at += suffix.count
          }
          at.pointee = UInt8(ascii: "\n")
          at += 1
          increment(digits)
        }
        count = at - buffer.baseAddress!
      }
    }
  }

  /// Adds one to the right-aligned decimal number in `digits` (spaces before it).
  static func increment(_ digits: UnsafeMutableBufferPointer<UInt8>) {
    var position = digits.count - 1
    while position >= 0 {
      switch digits[position] {
      case UInt8(ascii: "9"):
        digits[position] = UInt8(ascii: "0")
        position -= 1
      case UInt8(ascii: " "):
        digits[position] = UInt8(ascii: "1")
        return
      default:
        digits[position] += 1
        return
      }
    }
  }
}
