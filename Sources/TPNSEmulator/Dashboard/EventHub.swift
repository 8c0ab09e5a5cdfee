import Dispatch
import FoundationEssentials
import Locking
import Synchronization

/// The live events of `GET /_emulator/stream` (Server-Sent Events), which the dashboard
/// and `curl -N` scripts watch; docs/EMULATOR.md (the dashboard) lists the events and
/// the limits. An event goes, unencoded, into one ring that every stream reads
/// (``ringLimit`` events), each keeping only its place in it. A stream with nothing to
/// send keeps its connection suspended until a flush (at most one per
/// ``flushInterval``) sends what arrived meanwhile in one piece (``pieceLimit``), so a
/// flood of requests costs the serving thread a bounded number of writes.
///
///     hub.publish("reset", ["reset": true])
final class EventHub: @unchecked Sendable {
  // @unchecked: every mutable property, the hub's and its streams', is only touched
  // with `lock` held.

  static let heartbeatInterval = 15.0
  /// Milliseconds `EventSource` waits before reconnecting.
  static let retryMilliseconds = 1000
  static let ringLimit = 2000
  static let pieceLimit = 16 * 1024
  /// Milliseconds between two wakes of the suspended streams.
  static let flushInterval = 50
  /// A few dashboards and scripts, far below the server's connection limit.
  static let maximumStreams = 64
  static let maximumStreamsPerPeer = 16

  fileprivate let lock = Lock()
  private var streams: [ObjectIdentifier: EventStream] = [:] {
    didSet { isWatched.store(!streams.isEmpty, ordering: .releasing) }
  }
  /// Whether a stream is open, read without the lock: with none, a request's events
  /// cost one atomic load. An event published while a stream opens is its first or
  /// was before it.
  private let isWatched = Atomic<Bool>(false)
  /// Recent events, oldest first; `firstSequence` is the number of `ring[0]`.
  private var ring: [Event] = []
  private var ringStart = 0
  private var firstSequence = 0
  private var isFlushScheduled = false
  private var nextStreamNumber = 0
  private var timer: (any DispatchSourceTimer)?
  private let queue = DispatchQueue(label: "tpns-server.events")
  private let encoder = JSONEncoder()

  fileprivate var nextSequence: Int { firstSequence + ring.count - ringStart }

  /// One event of the ring: its value until a stream reads it, then its bytes.
  private struct Event {
    var type: String
    var value: (any Encodable & Sendable)?
    var bytes: [UInt8]?
  }

  func start() {
    lock.withLock {
      guard timer == nil else { return }
      let source = DispatchSource.makeTimerSource(queue: queue)
      source.schedule(
        deadline: .now() + Self.heartbeatInterval, repeating: Self.heartbeatInterval)
      source.setEventHandler { [weak self] in
        self?.endUnreadStreams()
        self?.append { Event(type: "", value: nil, bytes: Array(": heartbeat\n\n".utf8)) }
      }
      source.resume()
      timer = source
    }
  }

  /// Ends every stream (each then finishes its body) and stops the heartbeat.
  func stop() {
    let wakes = lock.withLock { () -> [@Sendable () -> Void] in
      timer?.cancel()
      timer = nil
      defer { streams = [:] }
      return streams.values.compactMap { stream in
        stream.isClosed = true
        return stream.takeWake()
      }
    }
    for wake in wakes { wake() }
  }

  var count: Int { lock.withLock { streams.count } }

  /// A new stream, registered to receive every event from now on.
  func open() -> EventStream {
    lock.withLock {
      let stream = EventStream(hub: self, cursor: nextSequence, number: nextStreamNumber)
      nextStreamNumber += 1
      streams[ObjectIdentifier(stream)] = stream
      stream.preamble =
        Array("retry: \(Self.retryMilliseconds)\n\n".utf8)
        + Self.event("hello", data: "{\"streams\":\(streams.count)}")
      return stream
    }
  }

  /// Makes room for `stream`, attached to a connection from `peer`: ends the oldest
  /// stream of `peer` when it has more than ``maximumStreamsPerPeer``, else the oldest
  /// of the address with the most when more than ``maximumStreams`` are open.
  fileprivate func admit(_ stream: EventStream, peer: String) {
    let wakes = lock.withLock { () -> [@Sendable () -> Void] in
      guard streams[ObjectIdentifier(stream)] != nil else { return [] }
      var wakes: [@Sendable () -> Void] = []
      while true {
        let byPeer = Dictionary(grouping: streams.values, by: \.peer)
        let oldest: EventStream?
        let reason: String
        if let own = byPeer[peer], own.count > Self.maximumStreamsPerPeer {
          oldest = own.min { $0.number < $1.number }
          reason =
            "more than \(Self.maximumStreamsPerPeer) streams are open from \(peer); this was "
            + "the oldest"
        } else if streams.count > Self.maximumStreams {
          let busiest = byPeer.values.max { a, b in
            a.count != b.count
              ? a.count < b.count
              : a.map(\.number).min()! > b.map(\.number).min()!
          }
          oldest = busiest?.min { $0.number < $1.number }
          reason = "more than \(Self.maximumStreams) streams are open; this was the oldest"
        } else {
          break
        }
        guard let oldest else { break }
        if let wake = end(oldest, reason: reason) { wakes.append(wake) }
      }
      return wakes
    }
    for wake in wakes { wake() }
  }

  /// Ends every stream whose connection held unsent bytes at the previous check and
  /// still does (its client does not read), shutting its connection down.
  func endUnreadStreams() {
    let (wakes, aborts) = lock.withLock {
      () -> ([@Sendable () -> Void], [@Sendable () -> Void]) in
      var wakes: [@Sendable () -> Void] = []
      var aborts: [@Sendable () -> Void] = []
      for stream in streams.values {
        guard let connection = stream.connection else { continue }
        let isBacklogged = connection.unsentBytes() > 0
        if isBacklogged && stream.wasBacklogged {
          if let wake = end(stream, reason: "its client does not read") { wakes.append(wake) }
          aborts.append(connection.abort)
        }
        stream.wasBacklogged = isBacklogged
      }
      return (wakes, aborts)
    }
    for abort in aborts { abort() }
    for wake in wakes { wake() }
  }

  /// With `lock` held: ends `stream`, which sends a `closed` event with `reason` and
  /// then ends its body; returns what resumes its connection, if suspended.
  private func end(_ stream: EventStream, reason: String) -> (@Sendable () -> Void)? {
    streams.removeValue(forKey: ObjectIdentifier(stream))
    let data = (try? encoder.encode(["reason": reason])).map {
      String(decoding: $0, as: UTF8.self)
    }
    stream.farewell = Self.event("closed", data: data ?? "{}")
    stream.isClosed = true
    return stream.takeWake()
  }

  /// Sends the event `type` with `value` as JSON to every open stream (`value` is
  /// only made when one is open).
  func publish<Value: Encodable & Sendable>(_ type: String, _ value: @autoclosure () -> Value) {
    append { Event(type: type, value: value(), bytes: nil) }
  }

  /// Appends the event `make` returns to the ring and schedules a wake of the streams.
  private func append(_ make: () -> Event) {
    guard isWatched.load(ordering: .acquiring) else { return }  // no one to tell
    lock.withLock {
      guard !streams.isEmpty else { return }  // no one to tell
      ring.append(make())
      if ring.count - ringStart > Self.ringLimit {
        ring[ringStart] = Event(type: "", value: nil, bytes: nil)
        ringStart += 1
        firstSequence += 1
        if ringStart >= Self.ringLimit {  // compacted now and then, not on every event
          ring.removeFirst(ringStart)
          ringStart = 0
        }
      }
      scheduleFlush()
    }
  }

  /// With `lock` held: the framed bytes of the event at `index`, encoded on first use.
  private func encoded(at index: Int) -> [UInt8] {
    if let bytes = ring[index].bytes { return bytes }
    var bytes: [UInt8] = []
    if let value = ring[index].value, let data = try? encoder.encode(value) {
      bytes = Self.event(ring[index].type, data: String(decoding: data, as: UTF8.self))
    }
    ring[index] = Event(type: ring[index].type, value: nil, bytes: bytes)
    return bytes
  }

  /// With `lock` held: wakes the streams that have something to send, soon.
  fileprivate func scheduleFlush() {
    guard !isFlushScheduled else { return }
    isFlushScheduled = true
    queue.asyncAfter(deadline: .now() + .milliseconds(Self.flushInterval)) { [weak self] in
      self?.flush()
    }
  }

  private func flush() {
    let wakes = lock.withLock { () -> [@Sendable () -> Void] in
      isFlushScheduled = false
      return streams.values.compactMap { stream in
        stream.hasMoreThanSent = false
        return stream.cursor < nextSequence ? stream.takeWake() : nil
      }
    }
    for wake in wakes { wake() }
  }

  /// With `lock` held: the bytes for a stream at `cursor` (at most ``pieceLimit``),
  /// and the cursor after them; an overflow event when the ring has moved past it.
  fileprivate func piece(from cursor: Int) -> ([UInt8], next: Int) {
    if cursor < firstSequence {
      return (Self.event("overflow", data: "{}"), firstSequence)
    }
    var bytes: [UInt8] = []
    var next = cursor
    while next < nextSequence {
      let event = encoded(at: next - firstSequence + ringStart)
      if !bytes.isEmpty && bytes.count + event.count > Self.pieceLimit { break }
      bytes += event
      next += 1
    }
    return (bytes, next)
  }

  fileprivate func remove(_ stream: EventStream) {
    lock.withLock {
      _ = streams.removeValue(forKey: ObjectIdentifier(stream))
      if streams.isEmpty {
        firstSequence = nextSequence
        ring = []
        ringStart = 0
      }
    }
  }

  /// `data` is one line (JSON escapes newlines).
  private static func event(_ type: String, data: String) -> [UInt8] {
    Array("event: \(type)\ndata: \(data)\n\n".utf8)
  }
}

/// One open `/_emulator/stream`: its place in the hub's ring, and whether its
/// connection is suspended waiting for the next flush. Its state is guarded by the
/// hub's lock.
final class EventStream: LiveBodyStream, @unchecked Sendable {
  private weak var hub: EventHub?
  private let lock: Lock
  /// Its order of opening: the oldest stream has the lowest.
  fileprivate let number: Int
  fileprivate var connection: LiveConnection?
  fileprivate var peer: String { connection?.peer ?? "" }
  /// Whether its socket held unsent bytes at the last check.
  fileprivate var wasBacklogged = false
  /// The `closed` event sent last, when the hub ended it.
  fileprivate var farewell: [UInt8] = []
  /// `retry:` and `hello`, sent first.
  fileprivate var preamble: [UInt8] = []
  /// The sequence number of the next event to send.
  fileprivate var cursor: Int
  fileprivate var isSuspended = false
  fileprivate var isClosed = false
  /// Whether a piece was sent since the last flush: the next read then waits for one.
  fileprivate var hasMoreThanSent = false

  fileprivate init(hub: EventHub, cursor: Int, number: Int) {
    self.hub = hub
    lock = hub.lock
    self.cursor = cursor
    self.number = number
  }

  /// With the lock held: what resumes the connection, if it is suspended (then no
  /// longer).
  fileprivate func takeWake() -> (@Sendable () -> Void)? {
    guard isSuspended, let resume = connection?.resume else { return nil }
    isSuspended = false
    return resume
  }

  func attach(_ connection: LiveConnection) {
    lock.withLock { self.connection = connection }
    hub?.admit(self, peer: connection.peer)
  }

  func nextPiece(suspend: () -> Void) -> [UInt8]? {
    lock.withLock { () -> [UInt8]? in
      if !preamble.isEmpty {
        defer { preamble = [] }
        return preamble
      }
      if isClosed {
        defer { farewell = [] }
        return farewell.isEmpty ? nil : farewell
      }
      if !hasMoreThanSent, let hub {
        let (bytes, next) = hub.piece(from: cursor)
        if !bytes.isEmpty {
          cursor = next
          hasMoreThanSent = true  // at most one piece per flush
          return bytes
        }
      }
      // Suspended with the lock held: a flush waits for it, then resumes.
      isSuspended = true
      if let hub, hasMoreThanSent, cursor < hub.nextSequence { hub.scheduleFlush() }
      suspend()
      return []
    }
  }

  func detach() {
    lock.withLock {
      isClosed = true
      connection = nil
    }
    hub?.remove(self)
  }
}
