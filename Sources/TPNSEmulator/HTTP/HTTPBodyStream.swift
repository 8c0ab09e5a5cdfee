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
