import Locking

/// One `/tpns` request as received: what was sent, and what was answered.
///
/// The parameters are kept as the raw form bytes (one allocation) and decoded again
/// when the log is read, which keeps a full log to a few megabytes.
struct RequestLogEntry: Sendable, Equatable {
  /// 1 for the first request since start (or reset).
  var sequence: Int
  /// Milliseconds since 1970.
  var time: Int64
  /// Nil for a request libmicrohttpd answered by itself, unread (see
  /// ``RequestError/unread(status:)``); so is `path`.
  var method: String?
  var path: String?
  /// The form text as received: the query, then `&` and the body when both are present.
  var form: [UInt8]
  /// Whether `form` decoded (then ``parameters`` shows it; else ``raw`` does).
  var isDecoded: Bool
  var status: Int
  /// The one-line reason of a refusal.
  var error: String?
  /// What the request sent that a canonical client would not (see ``Conformance``).
  var warnings: [String] = []

  /// The decoded parameters in the order sent; nil when they could not be decoded.
  var parameters: [FormParameters.Pair]? {
    isDecoded ? (try? FormParameters(decoding: form))?.pairs : nil
  }

  /// The form text exactly as received, so that a client's wire format can be
  /// checked byte for byte (at most 4 KiB, invalid UTF-8 replaced).
  var raw: String {
    String(decoding: form.prefix(4096), as: UTF8.self)
  }

  /// Approximate heap bytes, for the log's memory budget.
  var cost: Int {
    96 + form.count + (error?.utf8.count ?? 0) + warnings.reduce(0) { $0 + 16 + $1.utf8.count }
  }
}

/// The newest `/tpns` requests, in a bounded ring.
///
/// Holds at most ``capacity`` entries and about ``byteBudget`` bytes of them (a few
/// 1 MiB `mapsync` bodies would otherwise pin hundreds of megabytes); older ones are
/// dropped and counted, so memory stays flat however long the emulator runs.
/// Thread-safe.
final class RequestLog: @unchecked Sendable {
  // @unchecked: every stored property is only touched with `lock` held.

  /// Most entries kept.
  static let capacity = 10_000
  /// Most bytes of entries kept (approximately).
  static let byteBudget = 8 << 20

  private let lock = Lock()
  private var entries: [RequestLogEntry] = []
  /// Index of the oldest live entry in `entries` (the ring's head).
  private var head = 0
  private var bytes = 0
  private var total = 0

  /// Records `entry`, numbering it.
  func append(_ entry: RequestLogEntry) {
    lock.withLock {
      total += 1
      var entry = entry
      entry.sequence = total
      entries.append(entry)
      bytes += entry.cost
      while entries.count - head > Self.capacity
        || (bytes > Self.byteBudget && entries.count - head > 1)
      {
        bytes -= entries[head].cost
        // The slot stays in `entries` until the next compaction (up to capacity / 2
        // of them): free its payload now, or dropped 1 MiB bodies would pin gigabytes.
        entries[head].form = []
        entries[head].error = nil
        entries[head].warnings = []
        head += 1
      }
      if head >= Self.capacity / 2 {
        entries.removeFirst(head)
        head = 0
      }
    }
  }

  /// The entries kept (oldest first), how many were received, and how many dropped.
  func snapshot() -> (entries: [RequestLogEntry], total: Int, dropped: Int) {
    lock.withLock {
      let kept = Array(entries[head...])
      return (kept, total, total - kept.count)
    }
  }

  /// Bytes of form text held by every slot, dropped ones awaiting compaction
  /// included: what the log really costs (for tests).
  var retainedFormBytes: Int {
    lock.withLock { entries.reduce(0) { $0 + $1.form.count } }
  }

  /// Forgets everything, counters included.
  func reset() {
    lock.withLock {
      entries = []
      head = 0
      bytes = 0
      total = 0
    }
  }
}
