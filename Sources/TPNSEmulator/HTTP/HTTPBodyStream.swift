/// A response body made piece by piece while the client reads it, so that a large
/// answer is never held whole, nor once per client: a client that stops reading holds
/// only the piece being sent.
protocol HTTPBodyStream: AnyObject, Sendable {
  /// The next bytes of the body (possibly empty), or nil after the last. Called by the
  /// serving thread, one call at a time, as the client's socket has room.
  func nextPiece() -> [UInt8]?
}

/// A body that may have nothing to send for a while: a live event stream
/// (`/_emulator/stream`). Rather than block the serving thread, or make it spin, a read
/// with nothing ready suspends the connection (libmicrohttpd then leaves it out of its
/// poll set) and the stream resumes it once it has something.
protocol LiveBodyStream: HTTPBodyStream {
  /// Called once, before the first read.
  func attach(_ connection: LiveConnection)
  /// Replaces ``HTTPBodyStream/nextPiece()``: empty when nothing is ready, after calling
  /// `suspend` (on the serving thread, while the stream makes sure a resume follows).
  func nextPiece(suspend: () -> Void) -> [UInt8]?
  /// The connection is closed: the stream must not resume it again.
  func detach()
}

extension LiveBodyStream {
  func nextPiece() -> [UInt8]? { nextPiece(suspend: {}) }
}

/// The connection a ``LiveBodyStream`` is sent on: what the stream may do to it, from
/// any thread, until it is detached.
struct LiveConnection: Sendable {
  /// The client's address; empty when it cannot be told.
  var peer: String
  var resume: @Sendable () -> Void
  /// Bytes written to the socket that the client has not acknowledged yet.
  var unsentBytes: @Sendable () -> Int
  /// Shuts the socket down: the server then closes the connection, even one waiting
  /// for the client to read.
  var abort: @Sendable () -> Void
}
