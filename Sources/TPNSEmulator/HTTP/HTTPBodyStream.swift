/// A response body made piece by piece while the client reads it, so that a large
/// answer is never held whole, nor once per client: a client that stops reading holds
/// only the piece being sent.
///
/// ```swift
/// var response = OutgoingResponse.text(200, "")
/// response.stream = RequestLogStream(log: log, page: page)
/// ```
protocol HTTPBodyStream: AnyObject, Sendable {
  /// The next bytes of the body (possibly empty), or nil after the last. Called by the
  /// serving thread, one call at a time, as the client's socket has room.
  func nextPiece() -> [UInt8]?
}

/// A body that may have nothing to send for a while: a live event stream
/// (`/_emulator/stream`). Rather than block the serving thread, or make it spin, a read
/// with nothing ready suspends the connection (libmicrohttpd then leaves it out of its
/// poll set) and the stream resumes it once it has something.
///
/// The server calls ``attach(resume:)`` once before the first read and ``detach()``
/// when the connection is gone; ``nextPiece(suspend:)`` replaces ``nextPiece()``.
protocol LiveBodyStream: HTTPBodyStream {
  /// Given what resumes the connection (thread-safe, callable from any thread).
  func attach(resume: @escaping @Sendable () -> Void)
  /// The next bytes; nil after the last; empty when nothing is ready, after calling
  /// `suspend` (on the serving thread, while the stream makes sure a resume follows).
  func nextPiece(suspend: () -> Void) -> [UInt8]?
  /// The connection is closed: the stream must not resume it again.
  func detach()
}

extension LiveBodyStream {
  func nextPiece() -> [UInt8]? { nextPiece(suspend: {}) }
}
