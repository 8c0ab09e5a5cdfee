import FoundationEssentials

/// The body of `GET /_emulator/requests`: a page of the request log as JSON, each entry
/// fetched from the log (by sequence number) and encoded only once the previous one has
/// been sent, so that a client that stops reading holds one entry's JSON, not the page.
/// Shaped as the other endpoints' JSON (pretty-printed, keys sorted):
///
///     {"dropped": 0, "next": null, "requests": [{"seq": 1, ...}], "total": 1}
final class RequestLogStream: HTTPBodyStream, @unchecked Sendable {
  // @unchecked: the mutable state is only touched by `nextPiece()`, which the server
  // calls on one thread at a time.

  /// Entries in a page when the request does not say (`limit`).
  static let defaultLimit = 100
  static let maximumLimit = 1000

  private enum Part {
    case opening, entries, closing, done
  }

  private let log: RequestLog
  private let page: RequestLog.Page
  private let encoder: JSONEncoder
  private var part = Part.opening
  private var remaining: ArraySlice<Int>
  private var hasSentEntry = false

  init(log: RequestLog, since: Int?, limit: Int, filter: RequestFilter = RequestFilter()) {
    self.log = log
    page = log.page(since: since, limit: limit, matching: filter)
    remaining = page.sequences[...]
    encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  }

  func nextPiece() -> [UInt8]? {
    switch part {
    case .opening:
      part = .entries
      let next = page.next.map(String.init) ?? "null"
      return Array(
        "{\n  \"dropped\" : \(page.dropped),\n  \"next\" : \(next),\n  \"requests\" : [".utf8)
    case .entries:
      // An entry dropped (or a reset) since the page was taken is left out.
      var entry: RequestLogEntry?
      while entry == nil, let sequence = remaining.popFirst() {
        entry = log.entry(sequence, generation: page.generation)
      }
      guard let entry, let json = try? encoder.encode(JSONObject(request: entry)) else {
        part = .closing
        return nextPiece()
      }
      // The entry's own lines, indented to its place in the array.
      var piece = Array((hasSentEntry ? ",\n    " : "\n    ").utf8)
      piece.reserveCapacity(json.count + json.count / 8)
      for byte in json {
        piece.append(byte)
        if byte == UInt8(ascii: "\n") { piece += Array("    ".utf8) }
      }
      hasSentEntry = true
      return piece
    case .closing:
      part = .done
      return Array("\(hasSentEntry ? "\n  " : "")],\n  \"total\" : \(page.total)\n}\n".utf8)
    case .done:
      return nil
    }
  }
}
