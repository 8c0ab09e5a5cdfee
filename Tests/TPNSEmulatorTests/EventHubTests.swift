import Testing

@testable import TPNSEmulator

@Suite("EventHub: what publishing costs a request")
struct EventHubTests {
  /// Counts the values made for events.
  private final class Made: @unchecked Sendable {
    var count = 0
    func value() -> [String: Bool] {
      count += 1
      return ["reset": true]
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

/// The hub's limits on open streams, with connections of its own (no sockets).
@Suite("EventHub: how many streams stay open")
struct EventHubLimitTests {
  /// A connection's side as a stream sees it: how much it holds unsent, whether it was
  /// shut down.
  final class FakeConnection: @unchecked Sendable {
    var unsent = 0
    var aborted = false
    var resumed = 0

    func live(peer: String) -> LiveConnection {
      LiveConnection(
        peer: peer, resume: { self.resumed += 1 }, unsentBytes: { self.unsent },
        abort: { self.aborted = true })
    }
  }

  /// Opens a stream from `peer` and reads its preamble.
  static func open(_ hub: EventHub, peer: String) -> (EventStream, FakeConnection) {
    let stream = hub.open()
    let connection = FakeConnection()
    stream.attach(connection.live(peer: peer))
    _ = stream.nextPiece(suspend: {})
    return (stream, connection)
  }

  /// The rest of what `stream` sends until it ends (nil), as text; nil if it does not end.
  static func ending(_ stream: EventStream) -> String? {
    var text = ""
    for _ in 0..<3 {
      guard let piece = stream.nextPiece(suspend: {}) else { return text }
      text += String(decoding: piece, as: UTF8.self)
    }
    return nil
  }

  @Test("past the most streams in all, the oldest of the address with the most is ended")
  func totalLimit() {
    let hub = EventHub()
    let (first, _) = Self.open(hub, peer: "192.0.2.1")
    var busy: [EventStream] = []
    for _ in 0..<EventHub.maximumStreamsPerPeer {
      busy.append(Self.open(hub, peer: "192.0.2.2").0)
    }
    var others: [EventStream] = []
    while hub.count < EventHub.maximumStreams {
      others.append(Self.open(hub, peer: "192.0.2.\(3 + others.count / 8)").0)
    }
    #expect(hub.count == EventHub.maximumStreams)
    _ = Self.open(hub, peer: "192.0.2.200")
    #expect(hub.count == EventHub.maximumStreams)
    #expect(Self.ending(busy[0])?.contains("event: closed") == true)
    #expect(Self.ending(first) == nil, "another address's only stream stays")
    #expect(Self.ending(busy[1]) == nil)
  }

  @Test("a stream whose client does not read is ended at the second check, its socket shut")
  func unreadStream() {
    let hub = EventHub()
    let (reading, readingConnection) = Self.open(hub, peer: "192.0.2.1")
    let (stuck, stuckConnection) = Self.open(hub, peer: "192.0.2.1")
    stuckConnection.unsent = 4096
    readingConnection.unsent = 100  // once: it read it by the next check
    hub.endUnreadStreams()
    #expect(!stuckConnection.aborted)
    readingConnection.unsent = 0
    hub.endUnreadStreams()
    #expect(stuckConnection.aborted)
    #expect(!readingConnection.aborted)
    #expect(hub.count == 1)
    #expect(Self.ending(stuck)?.contains("its client does not read") == true)
    #expect(Self.ending(reading) == nil)
  }
}
