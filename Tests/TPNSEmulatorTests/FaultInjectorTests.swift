import Testing

@testable import TPNSEmulator

@Suite("FaultInjector: armed, taken, disarmed")
struct FaultInjectorTests {
  @Test("nothing is taken unarmed; an armed fault is taken its count of times, then gone")
  func takeCount() {
    let faults = FaultInjector()
    #expect(faults.take() == nil)
    faults.arm(.init(status: 503, remaining: 2, retryAfter: 7))
    #expect(faults.take() == .init(status: 503, remaining: 1, retryAfter: 7))
    #expect(faults.take() == .init(status: 503, remaining: 0, retryAfter: 7))
    #expect(faults.take() == nil)
    #expect(faults.current == nil)
  }

  @Test("disarming, or arming with no remaining requests, leaves nothing to take")
  func disarm() {
    let faults = FaultInjector()
    faults.arm(.init(status: 500, remaining: 3, retryAfter: nil))
    faults.disarm()
    #expect(faults.take() == nil)
    faults.arm(.init(status: 500, remaining: 0, retryAfter: nil))
    #expect(faults.take() == nil)
    faults.arm(.init(status: 429, remaining: 1, retryAfter: nil))
    #expect(faults.take()?.status == 429)
  }
}
