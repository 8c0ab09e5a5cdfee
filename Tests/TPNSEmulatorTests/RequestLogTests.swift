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
    let large = String(repeating: "x", count: 1 << 20)
    for _ in 0..<20 { log.append(Self.entry("map=\(large)")) }
    let snapshot = log.snapshot()
    #expect(snapshot.entries.count < 10)
    #expect(snapshot.entries.count >= 1)
    #expect(snapshot.total == 20)
  }

  @Test("frees the bodies of dropped entries at once, not at the next compaction")
  func droppedEntriesAreFreed() {
    let log = RequestLog()
    let large = String(repeating: "x", count: 1 << 20)
    for _ in 0..<100 { log.append(Self.entry("map=\(large)")) }
    // 100 MiB went in; only the byte budget (plus the entry that crossed it) may stay.
    #expect(log.retainedFormBytes <= RequestLog.byteBudget + (1 << 20) + 16)
    #expect(log.snapshot().dropped > 90)
  }
}
