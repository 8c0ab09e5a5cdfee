import Locking

/// One `/tpns` request as received: what was sent, and what was answered.
///
/// The parameters are kept as the raw form bytes (one allocation) and decoded again
/// when the log is read, which keeps a full log to a few megabytes; a large form is
/// cut (``bounded()``).
struct RequestLogEntry: Sendable, Equatable {
  /// Most bytes of the form text kept (and shown as ``raw``).
  static let keptFormBytes = 4 * 1024
  /// Most bytes of one decoded value kept, from a form over ``keptFormBytes``.
  static let keptValueBytes = 1024
  /// Most bytes of decoded names and values kept in all, from a form over
  /// ``keptFormBytes``; the parameters past it are left out.
  static let keptParameterBytes = 4 * 1024

  /// What was cut from a form the log did not keep whole.
  struct Truncation: Sendable, Equatable {
    /// A value cut to ``RequestLogEntry/keptValueBytes``, and its bytes as received.
    struct CutValue: Sendable, Equatable {
      var name: String
      var bytes: Int
    }

    /// Bytes of the form text as received.
    var formBytes: Int
    var cutValues: [CutValue] = []
    /// Parameters left out once ``RequestLogEntry/keptParameterBytes`` were kept.
    var leftOut = 0
  }

  /// 1 for the first request since start (or reset).
  var sequence: Int
  /// Milliseconds since 1970.
  var time: Int64
  /// Nil, as `path`, for a request libmicrohttpd answered by itself, unread.
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
  /// Milliseconds, two decimals; nil for a request libmicrohttpd answered by itself.
  var durationMilliseconds: Double? = nil
  /// Nil when the form is kept whole.
  var truncation: Truncation? = nil
  var faultRule: Int? = nil
  /// The decoded parameters of a form not kept whole, values cut (else they are
  /// decoded from `form` when read).
  var keptParameters: [FormParameters.Pair]? = nil

  /// The decoded parameters in the order sent (values cut for a large form); nil when
  /// they could not be decoded.
  var parameters: [FormParameters.Pair]? {
    guard isDecoded else { return nil }
    return keptParameters ?? (try? FormParameters(decoding: form))?.pairs
  }

  /// The form text exactly as received, so that a client's wire format can be
  /// checked byte for byte (at most ``keptFormBytes``, invalid UTF-8 replaced).
  var raw: String { String(decoding: form.prefix(Self.keptFormBytes), as: UTF8.self) }

  /// Approximate heap bytes, for the log's memory budget.
  var cost: Int {
    var bytes = 96 + form.count + (error?.utf8.count ?? 0)
    bytes += warnings.reduce(0) { $0 + 16 + $1.utf8.count }
    for pair in keptParameters ?? [] { bytes += 64 + pair.name.utf8.count + pair.value.utf8.count }
    for cut in truncation?.cutValues ?? [] { bytes += 48 + cut.name.utf8.count }
    return bytes
  }

  /// This entry as the log keeps it, a few KiB whatever was sent: a form over
  /// ``keptFormBytes`` cut to that, its decoded parameters kept with each value cut to
  /// ``keptValueBytes`` (at most ``keptParameterBytes`` in all), and ``truncation``.
  func bounded() -> RequestLogEntry {
    guard form.count > Self.keptFormBytes else { return self }
    var kept = self
    kept.form = Array(form.prefix(Self.keptFormBytes))
    var truncation = Truncation(formBytes: form.count)
    if isDecoded, let pairs = try? FormParameters(decoding: form).pairs {
      var budget = Self.keptParameterBytes
      var keptPairs: [FormParameters.Pair] = []
      for pair in pairs {
        let value = pair.value.prefix(utf8Bytes: Self.keptValueBytes)
        let bytes = pair.name.utf8.count + value.utf8.count
        guard bytes <= budget else {
          truncation.leftOut += 1
          continue
        }
        budget -= bytes
        keptPairs.append(FormParameters.Pair(name: pair.name, value: value))
        if value.utf8.count < pair.value.utf8.count {
          truncation.cutValues.append(.init(name: pair.name, bytes: pair.value.utf8.count))
        }
      }
      kept.keptParameters = keptPairs
    } else {
      kept.isDecoded = false
    }
    kept.truncation = truncation
    return kept
  }
}

extension String {
  /// The longest prefix of at most `limit` UTF-8 bytes that ends on a whole Unicode
  /// scalar.
  fileprivate func prefix(utf8Bytes limit: Int) -> String {
    guard utf8.count > limit else { return self }
    var end = utf8.index(utf8.startIndex, offsetBy: limit)
    while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 {  // a continuation byte
      end = utf8.index(before: end)
    }
    return String(self[..<end])
  }
}

/// The newest `/tpns` requests, in a bounded ring.
///
/// Holds at most ``capacity`` entries and about ``byteBudget`` bytes of them; older
/// ones are dropped and counted, so memory stays flat however long the emulator runs.
/// Read by pages (``page(since:limit:matching:)``, then ``entry(_:generation:)`` one at
/// a time), so that no reader copies the whole log. Thread-safe.
final class RequestLog: @unchecked Sendable {
  // @unchecked: every stored property is only touched with `lock` held.

  static let capacity = 10_000
  static let byteBudget = 8 << 20

  /// Which entries a reader asked for, by sequence number.
  struct Page: Sendable, Equatable {
    /// Oldest first (some may be dropped while it is read).
    var sequences: [Int]
    /// Requests received since start or reset.
    var total: Int
    /// Requests no longer kept.
    var dropped: Int
    /// The `since` of the following page; nil when this one reaches the newest.
    var next: Int?
    /// The log's generation when the page was taken (a reset starts another).
    var generation: Int
  }

  private let lock = Lock()
  private var entries: [RequestLogEntry] = []
  /// The index of the oldest live entry.
  private var head = 0
  private var bytes = 0
  private var total = 0
  /// Counts resets: sequence numbers start again at 1 after one.
  private var generation = 0

  /// Records `entry` (``RequestLogEntry/bounded()``), numbering it; returns it as
  /// recorded.
  @discardableResult
  func append(_ entry: RequestLogEntry) -> RequestLogEntry {
    var entry = entry.bounded()
    return lock.withLock {
      total += 1
      entry.sequence = total
      entries.append(entry)
      bytes += entry.cost
      while entries.count - head > Self.capacity
        || (bytes > Self.byteBudget && entries.count - head > 1)
      {
        bytes -= entries[head].cost
        // The slot stays in `entries` until the next compaction (up to capacity / 2
        // of them): free its payload now.
        entries[head] = Self.droppedSlot
        head += 1
      }
      if head >= Self.capacity / 2 {
        entries.removeFirst(head)
        head = 0
      }
      return entry
    }
  }

  /// The entries kept (oldest first), how many were received, and how many dropped.
  func snapshot() -> (entries: [RequestLogEntry], total: Int, dropped: Int) {
    lock.withLock {
      let kept = Array(entries[head...])
      return (kept, total, total - kept.count)
    }
  }

  /// The page of up to `limit` entries that `filter` matches after sequence number
  /// `since` (the oldest kept when `since` is older), or without `since`, the newest
  /// `limit`. Matched outside the lock (a match may decode a form and its map), on a
  /// copy of the ring that shares their storage.
  func page(since: Int?, limit: Int, matching filter: RequestFilter = RequestFilter()) -> Page {
    let (kept, total, generation) = lock.withLock {
      (entries[head...], self.total, self.generation)
    }
    let matching = kept.lazy.filter { $0.sequence > (since ?? 0) && filter.matches($0) }
    var chosen = since == nil ? Array(matching.suffix(limit)) : Array(matching.prefix(limit + 1))
    let hasMore = chosen.count > limit
    if hasMore { chosen.removeLast() }
    return Page(
      sequences: chosen.map(\.sequence), total: total, dropped: total - kept.count,
      next: hasMore ? chosen.last?.sequence : nil, generation: generation)
  }

  func count(matching filter: RequestFilter) -> Int {
    lock.withLock { entries[head...] }.count(where: filter.matches)
  }

  /// The kept entry numbered `sequence`; nil when it is no longer kept, or the log was
  /// reset since `generation`. O(1): the ring holds consecutive sequence numbers.
  func entry(_ sequence: Int, generation: Int) -> RequestLogEntry? {
    lock.withLock {
      guard generation == self.generation, head < entries.count else { return nil }
      let index = head + (sequence - entries[head].sequence)
      guard index >= head, index < entries.count else { return nil }
      return entries[index]
    }
  }

  /// Bytes of form text held by every slot, dropped ones awaiting compaction
  /// included (for tests).
  var retainedFormBytes: Int {
    lock.withLock { entries.reduce(0) { $0 + $1.form.count } }
  }

  private static let droppedSlot = RequestLogEntry(
    sequence: 0, time: 0, method: nil, path: nil, form: [], isDecoded: false, status: 0,
    error: nil)

  func reset() {
    lock.withLock {
      entries = []
      head = 0
      bytes = 0
      total = 0
      generation += 1
    }
  }
}
