import Testing

@testable import TPNSEmulator

@Suite("RequestLog: a bounded ring")
struct RequestLogTests {
  static func entry(_ form: String = "cmd=client") -> RequestLogEntry {
    RequestLogEntry(
      sequence: 0, time: 0, method: "GET", path: "/tpns", form: Array(form.utf8), isDecoded: true,
      status: 200, error: nil)
  }

  @Test("numbers entries and keeps them in order")
  func order() {
    let log = RequestLog()
    log.append(Self.entry("a=1"))
    log.append(Self.entry("a=2"))
    let snapshot = log.snapshot()
    #expect(snapshot.total == 2)
    #expect(snapshot.dropped == 0)
    #expect(snapshot.entries.map(\.sequence) == [1, 2])
    #expect(snapshot.entries.map { $0.parameters?.first?.value } == ["1", "2"])
  }

  @Test("keeps only the newest entries and counts the dropped ones")
  func bounded() {
    let log = RequestLog()
    let count = RequestLog.capacity + 2_500
    for _ in 0..<count { log.append(Self.entry()) }
    let snapshot = log.snapshot()
    #expect(snapshot.total == count)
    #expect(snapshot.entries.count == RequestLog.capacity)
    #expect(snapshot.dropped == 2_500)
    #expect(snapshot.entries.first?.sequence == 2_501)
    #expect(snapshot.entries.last?.sequence == count)
  }

  @Test("keeps about a byte budget of large entries")
  func byteBudget() {
    let log = RequestLog()
    let large = String(repeating: "x", count: 16 * 1024)
    // Each keeps about 5 KiB (4 KiB of form, 1 KiB of value): some 1,600 fit in 8 MiB.
    for _ in 0..<3_000 { log.append(Self.entry("map=\(large)")) }
    let snapshot = log.snapshot()
    #expect(snapshot.entries.count < 2_000)
    #expect(snapshot.entries.count > 1_000)
    #expect(snapshot.total == 3_000)
  }

  @Test("frees the bodies of dropped entries at once, not at the next compaction")
  func droppedEntriesAreFreed() {
    let log = RequestLog()
    let large = String(repeating: "x", count: 16 * 1024)
    for _ in 0..<3_000 { log.append(Self.entry("map=\(large)")) }
    // 48 MiB went in; only the byte budget may stay.
    #expect(log.retainedFormBytes <= RequestLog.byteBudget)
    #expect(log.snapshot().dropped > 1_000)
  }

  /// A refused 1 MiB request was kept whole, and decoded whole for every reader: ten
  /// clients reading the log held 454 MB.
  @Test("a form over 4 KiB is kept as its first 4 KiB, values cut to 1 KiB, and says so")
  func largeFormIsBounded() throws {
    let log = RequestLog()
    let large = String(repeating: "é", count: 1 << 15)  // 64 KiB of two-byte characters
    let form = "cmd=x&a=\(large)&b=2&c=\(large)&d=\(large)&e=\(large)&f=5"
    log.append(Self.entry(form))
    let entry = try #require(log.snapshot().entries.first)
    #expect(entry.form == Array(form.utf8.prefix(RequestLogEntry.keptFormBytes)))
    let kilobyte = String(repeating: "é", count: 512)
    // a, c, d are cut to 1 KiB; then e no longer fits in the 4 KiB of parameters.
    #expect(
      entry.parameters?.map { "\($0.name)=\($0.value)" } == [
        "cmd=x", "a=\(kilobyte)", "b=2", "c=\(kilobyte)", "d=\(kilobyte)", "f=5",
      ])
    #expect(
      entry.truncation
        == RequestLogEntry.Truncation(
          formBytes: form.utf8.count,
          cutValues: ["a", "c", "d"].map { .init(name: $0, bytes: 1 << 16) }, leftOut: 1))
    #expect(entry.cost < 10 * 1024)
  }

  @Test("a value is cut on a character boundary, never inside a UTF-8 sequence")
  func cutOnCharacterBoundary() throws {
    let log = RequestLog()
    // "xx" then three-byte characters: the 1,024th byte is inside the 341st one.
    log.append(Self.entry("a=xx" + String(repeating: "€", count: 2_000)))
    let value = try #require(log.snapshot().entries.first?.parameters?.first?.value)
    #expect(value == "xx" + String(repeating: "€", count: 340))
  }

  @Test("a form that did not decode keeps its first 4 KiB and no parameters")
  func undecodedLargeForm() throws {
    let log = RequestLog()
    var entry = Self.entry("a=%zz" + String(repeating: "x", count: 10_000))
    entry.isDecoded = false
    log.append(entry)
    let kept = try #require(log.snapshot().entries.first)
    #expect(kept.parameters == nil)
    #expect(kept.raw.utf8.count == RequestLogEntry.keptFormBytes)
    #expect(kept.truncation == RequestLogEntry.Truncation(formBytes: 10_005))
  }

  /// The log after 250 requests, the oldest 50 dropped: sequence numbers 51...250 kept.
  static func pagedLog() -> RequestLog {
    let log = RequestLog()
    for _ in 0..<50 { log.append(Self.entry()) }
    log.reset()
    for _ in 0..<250 { log.append(Self.entry()) }
    return log
  }

  struct PageCase: Sendable, CustomStringConvertible {
    var since: Int?
    var limit: Int
    var sequences: Range<Int>
    var next: Int?
    var description: String { "since \(since.map(String.init) ?? "none"), limit \(limit)" }
  }

  @Test(
    "a page: the newest without since, else the entries after it; next starts the following",
    arguments: [
      PageCase(since: nil, limit: 100, sequences: 151..<251, next: nil),
      PageCase(since: nil, limit: 1000, sequences: 1..<251, next: nil),
      PageCase(since: 0, limit: 100, sequences: 1..<101, next: 100),
      PageCase(since: 100, limit: 100, sequences: 101..<201, next: 200),
      PageCase(since: 200, limit: 100, sequences: 201..<251, next: nil),
      PageCase(since: 249, limit: 1, sequences: 250..<251, next: nil),
      PageCase(since: 250, limit: 100, sequences: 251..<251, next: nil),
      PageCase(since: Int.max, limit: 1000, sequences: 251..<251, next: nil),
    ])
  func page(_ wanted: PageCase) {
    let page = Self.pagedLog().page(since: wanted.since, limit: wanted.limit)
    #expect(page.sequences == Array(wanted.sequences))
    #expect(page.next == wanted.next)
    #expect(page.total == 250)
    #expect(page.dropped == 0)
  }

  @Test("a page starts at the oldest entry kept when older ones were dropped")
  func pageAfterDrops() {
    let log = RequestLog()
    for _ in 0..<(RequestLog.capacity + 50) { log.append(Self.entry()) }
    let page = log.page(since: 10, limit: 100)
    #expect(page.sequences == Array(51..<151))
    #expect(page.dropped == 50)
    #expect(page.next == 150)
    #expect(log.entry(50, generation: page.generation) == nil)
    #expect(log.entry(51, generation: page.generation)?.sequence == 51)
  }

  @Test("an entry is read by sequence number, and nothing from before a reset")
  func entryBySequence() {
    let log = Self.pagedLog()
    let page = log.page(since: nil, limit: 10)
    #expect(
      page.sequences.first.flatMap { log.entry($0, generation: page.generation) }?.sequence == 241)
    #expect(log.entry(251, generation: page.generation) == nil)
    log.reset()
    log.append(Self.entry())
    #expect(log.entry(1, generation: page.generation) == nil)
  }
}
