import Dispatch
import FoundationEssentials
import Locking

/// The live events of `GET /_emulator/stream` (Server-Sent Events): what the dashboard
/// and `curl -N` scripts watch. Each event is encoded once and queued on every open
/// stream; a stream with nothing to send keeps its connection suspended, so open
/// streams cost the serving thread nothing between events.
///
/// | event | data |
/// |---|---|
/// | `hello` | `{"streams": N}` on opening |
/// | `request` | a `/tpns` request as logged (the shape of `/_emulator/requests`' entries) |
/// | `registry` | `{"cmd": "client"}`: a command changed the registry |
/// | `notification` | `{"cmd": "event"}`: an event recorded notifications |
/// | `fault` | `{"fault": {...} or null}`: a fault armed, used up or disarmed |
/// | `reset` | `{}`: everything emptied |
/// | `overflow` | `{}`: events were dropped for this reader (it fell behind): reload |
///
/// A comment (`: heartbeat`) is sent every ``heartbeatInterval`` so that idle
/// connections stay open and gone clients are noticed; `retry:` tells `EventSource`
/// how soon to reconnect after the emulator restarts.
///
///     hub.publish("reset", ResetJSON())
final class EventHub: @unchecked Sendable {
  // @unchecked: `streams` and `timer` are only touched with `lock` held.

  /// Seconds between heartbeats.
  static let heartbeatInterval = 15.0
  /// Milliseconds `EventSource` waits before reconnecting.
  static let retryMilliseconds = 1000
  /// Bytes queued for one stream before they are dropped for an `overflow` event (a
  /// reader behind a flood of requests reloads rather than holding memory).
  static let queueLimit = 1 << 20

  private let lock = Lock()
  private var streams: [ObjectIdentifier: EventStream] = [:]
  private var timer: (any DispatchSourceTimer)?
  private let encoder = JSONEncoder()

  /// Starts the heartbeat.
  func start() {
    lock.withLock {
      guard timer == nil else { return }
      let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "tpns-server.events"))
      source.schedule(
        deadline: .now() + Self.heartbeatInterval, repeating: Self.heartbeatInterval)
      source.setEventHandler { [weak self] in self?.broadcast(Array(": heartbeat\n\n".utf8)) }
      source.resume()
      timer = source
    }
  }

  /// Ends every stream (each then finishes its body) and stops the heartbeat.
  func stop() {
    let open = lock.withLock { () -> [EventStream] in
      timer?.cancel()
      timer = nil
      defer { streams = [:] }
      return Array(streams.values)
    }
    for stream in open { stream.close() }
  }

  /// The number of open streams.
  var count: Int { lock.withLock { streams.count } }

  /// A new stream, registered to receive every event from now on.
  func open() -> EventStream {
    let stream = EventStream(hub: self)
    let count = lock.withLock {
      streams[ObjectIdentifier(stream)] = stream
      return streams.count
    }
    stream.deliver(Array("retry: \(Self.retryMilliseconds)\n\n".utf8))
    stream.deliver(Self.event("hello", data: "{\"streams\":\(count)}"))
    return stream
  }

  /// Sends the event `type` with `value` as JSON to every open stream.
  func publish(_ type: String, _ value: some Encodable) {
    guard lock.withLock({ !streams.isEmpty }) else { return }  // nothing to encode for
    guard let data = try? encoder.encode(value) else { return }
    broadcast(Self.event(type, data: String(decoding: data, as: UTF8.self)))
  }

  fileprivate func remove(_ stream: EventStream) {
    lock.withLock { _ = streams.removeValue(forKey: ObjectIdentifier(stream)) }
  }

  private func broadcast(_ bytes: [UInt8]) {
    let open = lock.withLock { Array(streams.values) }
    for stream in open { stream.deliver(bytes) }
  }

  /// One event in the SSE framing; `data` is one line (JSON escapes newlines).
  private static func event(_ type: String, data: String) -> [UInt8] {
    Array("event: \(type)\ndata: \(data)\n\n".utf8)
  }
}

/// One open `/_emulator/stream`: the bytes queued for it, and whether its connection is
/// suspended waiting for them.
final class EventStream: LiveBodyStream, @unchecked Sendable {
  // @unchecked: the mutable state is only touched with `lock` held.

  private let lock = Lock()
  private weak var hub: EventHub?
  private var pending: [UInt8] = []
  private var isSuspended = false
  private var isClosed = false
  private var resume: (@Sendable () -> Void)?

  fileprivate init(hub: EventHub) {
    self.hub = hub
  }

  /// Queues `bytes` and resumes the connection if it waits; a stream that has fallen
  /// ``EventHub/queueLimit`` behind has what is queued replaced by an `overflow` event.
  func deliver(_ bytes: [UInt8]) {
    let wake = lock.withLock { () -> (@Sendable () -> Void)? in
      guard !isClosed else { return nil }
      if pending.count + bytes.count > EventHub.queueLimit {
        pending = Array("event: overflow\ndata: {}\n\n".utf8)
      } else {
        pending += bytes
      }
      return takeWake()
    }
    wake?()
  }

  /// Ends the stream once what is queued has been sent.
  func close() {
    let wake = lock.withLock { () -> (@Sendable () -> Void)? in
      isClosed = true
      return takeWake()
    }
    wake?()
  }

  /// What resumes the connection, if it is suspended (then no longer); with `lock` held.
  private func takeWake() -> (@Sendable () -> Void)? {
    guard isSuspended, let resume else { return nil }
    isSuspended = false
    return resume
  }

  func attach(resume: @escaping @Sendable () -> Void) {
    lock.withLock { self.resume = resume }
  }

  func nextPiece(suspend: () -> Void) -> [UInt8]? {
    lock.withLock {
      if !pending.isEmpty {
        defer { pending = [] }
        return pending
      }
      if isClosed { return nil }
      // Suspended with the lock held: a `deliver` waits for it, then resumes.
      isSuspended = true
      suspend()
      return []
    }
  }

  func detach() {
    lock.withLock {
      isClosed = true
      resume = nil
      pending = []
    }
    hub?.remove(self)
  }
}
