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
    exitStatuses: GenerateManual.readingStatuses + [
      .init(74, "The list could not all be written to standard output (a full disk, say).")
    ])

  @OptionGroup var listing: ListingOptions

  var options: GlobalOptions { listing.resolved }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    let state = try runner.loadStore()
    let uids = state.uids
    if options.json {
      var json =
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
        ]).rendered + "\n"
      try Self.checkingOutput { try json.withUTF8 { try Console.outputChecked($0) } }
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
    try Self.checkingOutput {
      try Self.writeLines(
        of: uids, width: String(uids.count - 1).utf8.count, suffixes: suffixes,
        to: Console.outputChecked)
    }
  }

  /// Runs `write`, a failure to write standard output made exit 74: it stops
  /// at the first piece lost, so what was printed is the start of the list.
  static func checkingOutput(_ write: () throws -> Void) throws {
    do {
      try write()
    } catch {
      throw CommandFailure(
        "the list could not be written to standard output: \(error)",
        hint: "What was printed is the start of the list; make room where the output goes, "
          + "then run it again.",
        exitCode: ExitStatus.ioError)
    }
  }

  /// The size of the buffer ``writeLines(of:width:suffixes:to:)`` fills.
  static let chunkSize = 64 * 1024

  /// Writes `index  uid` lines to `output`, the index right-aligned in
  /// `width` columns, each followed by its UID's bytes in `suffixes` if any.
  /// Built in one 64 KB buffer, written each time it is full: no append per
  /// piece (for 10,000 UIDs those were a fifth of `tpns list`), and 16 pages
  /// touched rather than one per 4 KB of the output (a page fault costs
  /// about 3 µs on the machine measured).
  static func writeLines(
    of uids: UIDList, width: Int, suffixes: [String: [UInt8]] = [:],
    to output: (UnsafeBufferPointer<UInt8>) throws -> Void
  ) rethrows {
    if suffixes.isEmpty, width <= 14, uids.isAllTwentyBytes {
      return try writeUIDLines(of: uids, width: width, to: output)
    }
    try uids.withBytes { bytes, ends in
      try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunkSize) { chunk in
        // The index as decimal digits, counted up in place (no division per
        // line), copied with the UID by memcpy: pointers, not subscripts.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: width) { digits in
          digits.initialize(repeating: UInt8(ascii: " "))
          digits[width - 1] = UInt8(ascii: "0")
          var used = 0
          func flush() throws {
            try output(UnsafeBufferPointer(rebasing: chunk[..<used]))
            used = 0
          }
          var start = 0
          for index in ends.indices {
            let end = Int(ends[index])
            let count = end - start
            // No UID is made a `String` to find no settings when there are none.
            let suffix = suffixes.isEmpty ? nil : suffixes[uids[index]]
            let size = width + 3 + count + (suffix?.count ?? 0)
            if used + size > chunk.count { try flush() }
            if size > chunk.count {
              // Longer than the buffer (no line tpns lists is): in pieces.
              try output(UnsafeBufferPointer(digits))
              try [UInt8(ascii: " "), UInt8(ascii: " ")].withUnsafeBufferPointer(output)
              try output(UnsafeBufferPointer(start: bytes.baseAddress! + start, count: count))
              if let suffix { try suffix.withUnsafeBufferPointer(output) }
              try [UInt8(ascii: "\n")].withUnsafeBufferPointer(output)
            } else {
              let at = chunk.baseAddress! + used
              for position in 0..<width { at[position] = digits[position] }
              at[width] = UInt8(ascii: " ")
              at[width + 1] = UInt8(ascii: " ")
              (at + width + 2).update(from: bytes.baseAddress! + start, count: count)
              var next = at + width + 2 + count
              if let suffix {
                suffix.withUnsafeBufferPointer {
                  next.update(from: $0.baseAddress!, count: $0.count)
                }
                next += suffix.count
              }
              next.pointee = UInt8(ascii: "\n")
              used += size
            }
            start = end
            increment(digits)
          }
          if used > 0 { try flush() }
        }
      }
    }
  }

  /// ``writeLines(of:width:suffixes:to:)`` for a list of 20-byte UIDs (every
  /// list the store holds) without settings: every line is as long, and is
  /// made by word moves, the index and its two spaces as two words (written
  /// past where the index ends, which the UID then covers), the UID as three
  /// (the last two overlapping). About 25 instructions a line, where the
  /// general path takes 85.
  static func writeUIDLines(
    of uids: UIDList, width: Int, to output: (UnsafeBufferPointer<UInt8>) throws -> Void
  ) rethrows {
    let lineSize = width + 2 + 20 + 1
    // Lines a chunk holds, with room for the last one's 16-byte prefix store.
    let linesPerChunk = (chunkSize - 16) / lineSize
    try uids.withBytes { bytes, _ in
      guard var uid = UnsafeRawPointer(bytes.baseAddress) else { return }
      try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: chunkSize / 8) { words in
        let chunk = UnsafeMutableRawPointer(words.baseAddress!)
        // The index, right-aligned in `width` columns and counted up in place
        // (no division per line), then two spaces, padded to two words.
        try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2) { prefixWords in
          let prefix = UnsafeMutableRawPointer(prefixWords.baseAddress!)
          prefix.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: " "), count: 16)
          prefix.storeBytes(of: UInt8(ascii: "0"), toByteOffset: width - 1, as: UInt8.self)
          let digits = UnsafeMutableBufferPointer(
            start: prefix.assumingMemoryBound(to: UInt8.self), count: width)
          var remaining = uids.count
          while remaining > 0 {
            let lines = min(remaining, linesPerChunk)
            var at = chunk
            for _ in 0..<lines {
              at.storeBytes(of: prefix.load(as: UInt64.self), as: UInt64.self)
              at.storeBytes(
                of: prefix.load(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8,
                as: UInt64.self)
              let text = at + width + 2
              text.storeBytes(of: uid.loadUnaligned(as: UInt64.self), as: UInt64.self)
              text.storeBytes(
                of: uid.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8,
                as: UInt64.self)
              text.storeBytes(
                of: uid.loadUnaligned(fromByteOffset: 12, as: UInt64.self), toByteOffset: 12,
                as: UInt64.self)
              text.storeBytes(of: UInt8(ascii: "\n"), toByteOffset: 20, as: UInt8.self)
              at += lineSize
              uid += 20
              increment(digits)
            }
            try output(
              UnsafeBufferPointer(
                start: chunk.assumingMemoryBound(to: UInt8.self), count: at - chunk))
            remaining -= lines
          }
        }
      }
    }
  }

  /// Adds one to the right-aligned decimal number in `digits` (spaces before it).
  @inline(__always)
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
