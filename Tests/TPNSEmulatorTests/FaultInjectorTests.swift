import Testing

@testable import TPNSEmulator

@Suite("FaultInjector: chaos rules, matched in order")
struct FaultInjectorTests {
  @Test("nothing is taken unarmed; a rule is taken its count of times, then gone")
  func takeCount() {
    let faults = FaultInjector()
    #expect(faults.take(command: "client") == nil)
    faults.arm(FaultRule(status: 503, remaining: 2, retryAfter: 7))
    #expect(faults.take(command: "client")?.remaining == 1)
    let last = faults.take(command: nil)
    #expect(last?.status == 503)
    #expect(last?.remaining == 0)
    #expect(last?.hits == 2)
    #expect(last?.retryAfter == 7)
    #expect(faults.take(command: "client") == nil)
    #expect(faults.current.isEmpty)
  }

  @Test("rules are matched in order; a rule for one cmd lets the others pass to the next")
  func inOrder() {
    let faults = FaultInjector()
    let mapsync = faults.arm(FaultRule(status: 503, remaining: 1, command: "mapsync"))
    let any = faults.arm(FaultRule(status: 500, remaining: 1))
    #expect(mapsync.id == 1)
    #expect(any.id == 2)
    #expect(faults.take(command: "client")?.id == 2)
    #expect(faults.take(command: "client") == nil)
    #expect(faults.take(command: "mapsync")?.id == 1)
    #expect(faults.current.isEmpty)
  }

  @Test("disarming leaves nothing to take; ids go on")
  func disarm() {
    let faults = FaultInjector()
    faults.arm(FaultRule(status: 500, remaining: 3))
    faults.disarm()
    #expect(faults.take(command: nil) == nil)
    #expect(faults.arm(FaultRule(status: 429)).id == 2)
  }

  /// Which of 40 requests a rule with `probability` and `seed` takes.
  static func hits(probability: Double, seed: UInt64) -> [Int] {
    let faults = FaultInjector()
    faults.arm(FaultRule(status: 503, remaining: nil, probability: probability, seed: seed))
    return (0..<40).filter { _ in faults.take(command: "client") != nil }
  }

  @Test("a rule with a probability hits the same requests for the same seed, in any run")
  func seeded() {
    let first = Self.hits(probability: 0.25, seed: 7)
    #expect(first == Self.hits(probability: 0.25, seed: 7))
    #expect(first != Self.hits(probability: 0.25, seed: 8))
    #expect((4...18).contains(first.count), "\(first)")
    #expect(Self.hits(probability: 1, seed: 7).count == 40)
  }

  @Test("a probability rule draws only for the requests its cmd matches")
  func drawsOnlyWhenMatched() {
    // Requests of another cmd in between change nothing of which mapsyncs are hit.
    let alone = Self.mapsyncHits(FaultInjector(), interleaved: false)
    let mixed = Self.mapsyncHits(FaultInjector(), interleaved: true)
    #expect(alone == mixed)
  }

  static func mapsyncHits(_ faults: FaultInjector, interleaved: Bool) -> [Bool] {
    faults.arm(
      FaultRule(status: 503, remaining: nil, command: "mapsync", probability: 0.5, seed: 3))
    return (0..<20).map { _ in
      if interleaved { _ = faults.take(command: "client") }
      return faults.take(command: "mapsync") != nil
    }
  }
}
