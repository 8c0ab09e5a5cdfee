import CMicroHTTPD
import Dispatch
import Locking
import Synchronization

/// Keeps slow clients from holding the server's connections: a connection must send
/// each request head (request line and headers) within ``headTimeout`` of opening or of
/// its previous answer, else it is closed; and when more than ``maximumIncomplete``
/// connections are in the middle of sending a request, a new one closes the one that
/// has been at it longest. (libmicrohttpd's own timeout counts idleness, which a client
/// sending a header line every few seconds never reaches.)
///
/// A connection is closed by shutting its socket down, for libmicrohttpd to clean up on
/// its own thread; only while it is known to be open (under `lock`, which ``closed(_:)``
/// also takes), so a reused descriptor is never hit. A timer checks the deadlines; a
/// test calls ``closeLateHeads()`` on its own clock instead.
final class RequestDeadlines: @unchecked Sendable {
  // @unchecked: `connections`, `timer` and every `Connection`'s state are only touched
  // with `lock` held; the rest is immutable.

  /// One connection's progress. `@unchecked`: its state is only touched with the
  /// deadlines' lock held.
  final class Connection: @unchecked Sendable {
    fileprivate let socket: Int32
    /// Monotonic nanoseconds when the request being sent started (the connection
    /// opened, or its previous answer was sent); nil while one is being answered, or
    /// once the connection is being closed.
    fileprivate var requestStarted: UInt64?
    /// Whether the head of the request being sent has arrived: atomic, so that
    /// ``RequestDeadlines/headReceived(_:)`` takes no lock.
    fileprivate let hasHead = Atomic<Bool>(false)
    /// Its socket was shut down here.
    fileprivate var isClosing = false

    fileprivate init(socket: Int32, now: UInt64) {
      self.socket = socket
      requestStarted = now
    }
  }

  let headTimeout: Double
  let maximumIncomplete: Int
  /// Monotonic nanoseconds (tests pass their own).
  private let clock: @Sendable () -> UInt64

  private let lock = Lock()
  private var connections: [ObjectIdentifier: Connection] = [:]
  private var timer: (any DispatchSourceTimer)?

  init(
    headTimeout: Double, maximumIncomplete: Int,
    clock: @escaping @Sendable () -> UInt64 = Clock.monotonicNanoseconds
  ) {
    self.headTimeout = headTimeout
    self.maximumIncomplete = maximumIncomplete
    self.clock = clock
  }

  deinit { stop() }

  /// Starts checking the head deadlines (idempotent).
  func start() {
    lock.withLock {
      guard timer == nil else { return }
      let interval = min(1, headTimeout / 4)
      let source = DispatchSource.makeTimerSource(
        queue: DispatchQueue(label: "tpns-server.request-deadlines"))
      source.schedule(
        deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
      source.setEventHandler { [weak self] in self?.closeLateHeads() }
      source.resume()
      timer = source
    }
  }

  /// Idempotent.
  func stop() {
    lock.withLock {
      timer?.cancel()
      timer = nil
    }
  }

  /// Tracks a connection libmicrohttpd accepted on `socket`, waiting for its first
  /// request; closes the longest incomplete one if that makes too many.
  func opened(socket: Int32) -> Connection {
    let connection = Connection(socket: socket, now: clock())
    lock.withLock {
      connections[ObjectIdentifier(connection)] = connection
      // The one that has been sending its request longest (the new one at least is).
      // Counting the incomplete ones is a scan: only when the open ones are too many.
      if connections.count > maximumIncomplete, incompleteCount > maximumIncomplete,
        let oldest = connections.values.min(by: {
          ($0.requestStarted ?? .max) < ($1.requestStarted ?? .max)
        })
      {
        close(oldest)
      }
    }
    return connection
  }

  /// The request line and headers of `connection`'s request have arrived.
  func headReceived(_ connection: Connection) {
    connection.hasHead.store(true, ordering: .releasing)
  }

  /// `connection`'s request has arrived whole (its body too) and is being answered.
  func requestReceived(_ connection: Connection) {
    lock.withLock { connection.requestStarted = nil }
  }

  /// `connection`'s answer was sent: the next request's head is due.
  func answered(_ connection: Connection) {
    let now = clock()
    lock.withLock {
      guard connection.requestStarted == nil, !connection.isClosing else { return }
      connection.requestStarted = now
      connection.hasHead.store(false, ordering: .releasing)
    }
  }

  /// libmicrohttpd closed `connection` (its socket is closed next).
  func closed(_ connection: Connection) {
    lock.withLock { connections[ObjectIdentifier(connection)] = nil }
  }

  /// Shuts `connection`'s socket down, for libmicrohttpd to close it (a stream the
  /// server ends), unless it is closed already.
  func abort(_ connection: Connection) {
    lock.withLock {
      guard connections[ObjectIdentifier(connection)] != nil, !connection.isClosing else { return }
      close(connection)
    }
  }

  /// Bytes written to `connection`'s socket that the client has not acknowledged yet;
  /// 0 once it is closed.
  func unsentBytes(_ connection: Connection) -> Int {
    lock.withLock {
      guard connections[ObjectIdentifier(connection)] != nil, !connection.isClosing else {
        return 0
      }
      return max(0, Int(tpns_socket_unsent_bytes(connection.socket)))
    }
  }

  /// Connections tracked, and those in the middle of a request (for tests).
  var counts: (open: Int, incomplete: Int) {
    lock.withLock { (connections.count, incompleteCount) }
  }

  /// With `lock` held: the connections with a `requestStarted`.
  private var incompleteCount: Int {
    connections.values.count { $0.requestStarted != nil }
  }

  /// Whether `connection` was closed here (for tests).
  func wasClosed(_ connection: Connection) -> Bool {
    lock.withLock { connection.isClosing }
  }

  /// Closes every connection whose head is late (the timer calls this).
  func closeLateHeads() {
    let timeout = UInt64(headTimeout * 1_000_000_000)
    lock.withLock {
      // Read with the lock held: a start stamped by another thread just before is not
      // later than this (a later one, read before, wrapped around and closed a busy
      // keep-alive connection).
      let now = clock()
      for connection in connections.values where !connection.hasHead.load(ordering: .acquiring) {
        if let started = connection.requestStarted, now > started, now - started > timeout {
          close(connection)
        }
      }
    }
  }

  /// With `lock` held: shuts `connection`'s socket down, for libmicrohttpd to close.
  private func close(_ connection: Connection) {
    shutdown(connection.socket, Int32(SHUT_RDWR))
    connection.isClosing = true
    connection.requestStarted = nil
  }
}
