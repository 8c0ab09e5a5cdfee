import Testing

@testable import TPNSEmulator

@Suite("EventHub: what publishing costs a request")
struct EventHubTests {
  /// Counts the values made for events.
  private final class Made: @unchecked Sendable {
    var count = 0
    func value() -> ResetJSON {
      count += 1
      return ResetJSON()
    }
  }

  @Test("with no stream open, an event's value is not even made; with one, it is sent")
  func lazyValue() {
    let hub = EventHub()
    let made = Made()
    hub.publish("reset", made.value())
    #expect(made.count == 0)

    let stream = hub.open()
    _ = stream.nextPiece(suspend: {})  // retry: and hello
    hub.publish("reset", made.value())
    #expect(made.count == 1)
    let piece = stream.nextPiece(suspend: {}) ?? []
    #expect(String(decoding: piece, as: UTF8.self) == "event: reset\ndata: {\"reset\":true}\n\n")

    stream.detach()
    hub.publish("reset", made.value())
    #expect(made.count == 1)
  }
}
