import CMicroHTTPD
import Glibc
import Locking

/// An HTTP/1.1 server over GNU libmicrohttpd that hands each complete request to a
/// handler, on libmicrohttpd's poll threads (concurrently: it must be thread-safe), and
/// sends back what it returns (a ``OutgoingResponse/stream`` as the client reads it).
///
/// A body over ``maximumBodySize`` reaches the handler empty, with
/// ``IncomingRequest/isBodyTooLarge``: unread when `Content-Length` declares it, else
/// read and dropped. A request libmicrohttpd answers by itself (a line or header over
/// ``connectionMemoryLimit``) only tells `refused` its status. A request whose headers
/// frame its body ambiguously or that a proxy could read as other headers is answered
/// 400 and its connection closed, as a smuggled request would be. Slow clients are held
/// to ``RequestDeadlines``.
///
///     let server = HTTPServer { request in .text(200, "ok\n") }
///     let port = try server.start(host: "127.0.0.1", port: 0)
final class HTTPServer: @unchecked Sendable {
  // @unchecked: `daemon` is only touched with `lock` held; the rest is immutable (and
  // `deadlines` thread-safe).

  static let maximumBodySize = 1 << 20
  /// Seconds a connection may stay idle.
  static let connectionTimeout: UInt32 = 30
  /// Seconds a connection has to send each request head (``RequestDeadlines``); also
  /// the longest a keep-alive connection waits for its next request.
  static let headTimeout: Double = 10
  /// Longest request target (path and query) answered, as nginx's and Apache's
  /// default request line; a longer one is refused with 414.
  static let maximumTargetLength = 8 * 1024

  /// Per-connection memory for the request line and headers. libmicrohttpd answers a
  /// line or header that does not fit by itself (414 or 431, with an HTML body the
  /// emulator cannot replace), so it is twice ``maximumTargetLength``: a target up to
  /// about 15 KiB still reaches the router, which answers its own 414. libmicrohttpd
  /// clears this pool after every request, so it is kept small (a larger one costs
  /// throughput on every keep-alive request).
  static let connectionMemoryLimit = 16 * 1024
  static let connectionLimit: UInt32 = 1000
  /// Most connections in the middle of sending a request (``RequestDeadlines``): half
  /// the connection limit, leaving the other half to requests being answered.
  static let maximumIncompleteRequests = Int(connectionLimit) / 2

  typealias Handler = @Sendable (IncomingRequest) -> OutgoingResponse

  fileprivate let handler: Handler
  /// Receives the status of a request libmicrohttpd answered by itself.
  fileprivate let refused: @Sendable (Int) -> Void
  /// What the C logger calls back (`refusalCallback` with `self`): freed in `deinit`,
  /// after the daemon that uses it is stopped.
  private let refusalSink: UnsafeMutablePointer<tpns_mhd_refusal_sink>
  let deadlines: RequestDeadlines
  private let lock = Lock()
  private var daemon: OpaquePointer?

  init(
    handler: @escaping Handler, refused: @escaping @Sendable (Int) -> Void = { _ in },
    headTimeout: Double = HTTPServer.headTimeout,
    maximumIncompleteRequests: Int = HTTPServer.maximumIncompleteRequests
  ) {
    self.handler = handler
    self.refused = refused
    deadlines = RequestDeadlines(
      headTimeout: headTimeout, maximumIncomplete: maximumIncompleteRequests)
    refusalSink = .allocate(capacity: 1)
    refusalSink.initialize(
      to: tpns_mhd_refusal_sink(
        callback: refusalCallback, context: Unmanaged.passUnretained(self).toOpaque()))
  }

  deinit {
    stop()
    refusalSink.deallocate()
  }

  /// Starts listening on `host`:`port` (0: a free port), over https with `tls`, and
  /// returns the bound port.
  func start(host: String, port: UInt16, threads: Int, tls: TLSIdentity? = nil)
    throws(EmulatorError) -> UInt16
  {
    try lock.withLock { () throws(EmulatorError) -> UInt16 in
      guard daemon == nil else { throw EmulatorError.alreadyRunning }
      var code: Int32 = 0
      // Unretained: the daemon is stopped (in `stop()` or `deinit`) before `self` goes.
      let context = Unmanaged.passUnretained(self).toOpaque()
      guard
        let started = tpns_mhd_start(
          host, port, accessHandler, uriCallback, completedCallback, connectionCallback, context,
          refusalSink,
          UInt32(max(1, threads)), Self.connectionTimeout, Self.connectionMemoryLimit,
          Self.connectionLimit, tls?.key, tls?.certificate, &code)
      else {
        let reason =
          code == EADDRNOTAVAIL
          ? "it is not an address of this machine, nor a name that resolves to one"
          : String(cString: strerror(code))
        throw EmulatorError.cannotListen(host: host, port: port, reason: reason)
      }
      daemon = started
      deadlines.start()
      return tpns_mhd_bound_port(started)
    }
  }

  /// Stops accepting, finishes the requests in progress and joins the threads
  /// (idempotent).
  func stop() {
    let running = lock.withLock { () -> OpaquePointer? in
      defer { daemon = nil }
      return daemon
    }
    if let running { MHD_stop_daemon(running) }
    deadlines.stop()
  }
}

/// One open connection, its socket context from opening to closing. Only touched on
/// the connection's own thread.
private final class ServedConnection {
  let deadlines: RequestDeadlines.Connection
  /// The last small answer, sent again as is when the next one is the same.
  var lastAnswer: ReusableAnswer?

  init(deadlines: RequestDeadlines.Connection) { self.deadlines = deadlines }
}

/// A libmicrohttpd response kept to be queued again: a keep-alive client sends the
/// same command over and over (a phone refreshing its registration) and gets the same
/// few bytes back, and queuing a kept response costs a reference, not a new one's
/// allocations.
private final class ReusableAnswer {
  /// Largest body kept, so that a connection holds at most this much.
  static let maximumBody = 256

  let status: Int
  let contentType: String
  let body: [UInt8]
  let response: OpaquePointer

  init?(status: Int, contentType: String, body: [UInt8]) {
    let made = body.withUnsafeBytes { bytes in
      MHD_create_response_from_buffer(
        bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let made else { return nil }
    guard MHD_add_response_header(made, "Content-Type", contentType).rawValue == 1,
      MHD_add_response_header(made, "X-Content-Type-Options", "nosniff").rawValue == 1
    else {
      MHD_destroy_response(made)
      return nil
    }
    self.status = status
    self.contentType = contentType
    self.body = body
    response = made
  }

  /// Drops this reference; libmicrohttpd keeps its own while it sends it.
  deinit { MHD_destroy_response(response) }

  func answers(_ answer: OutgoingResponse) -> Bool {
    answer.status == status && answer.body == body && answer.contentType == contentType
  }
}

/// The state of one request between libmicrohttpd's callbacks: created by the URI
/// callback, owned through `*con_cls`, released when the request completes.
private final class PendingRequest {
  let target: String
  let served: ServedConnection?
  var body: [UInt8] = []
  var isBodyTooLarge = false
  var hasStarted = false

  var connection: RequestDeadlines.Connection? { served?.deadlines }

  init(target: String, connection: OpaquePointer?) {
    self.target = target
    served = connection.flatMap(tpns_mhd_connection_context).map {
      Unmanaged<ServedConnection>.fromOpaque($0).takeUnretainedValue()
    }
  }
}

/// libmicrohttpd calls this with the raw target before parsing it; the raw query is
/// what the emulator decodes strictly (libmicrohttpd's own parsing is lenient).
private let uriCallback: tpns_mhd_uri_callback = { _, uri, connection in
  Unmanaged.passRetained(PendingRequest(target: String(cString: uri), connection: connection))
    .toOpaque()
}

/// Tracks each connection for its deadlines: opened, then closed (before its socket
/// is). Its ``RequestDeadlines/Connection`` is the connection's socket context.
private let connectionCallback: MHD_NotifyConnectionCallback = {
  context, connection, socketContext, event in
  guard let context, let connection, let socketContext else { return }
  let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
  switch event {
  case .CONNECTION_NOTIFY_STARTED:
    let tracked = server.deadlines.opened(socket: tpns_mhd_connection_socket(connection))
    socketContext.pointee = Unmanaged.passRetained(ServedConnection(deadlines: tracked))
      .toOpaque()
  case .CONNECTION_NOTIFY_CLOSED:
    guard let stored = socketContext.pointee else { return }
    socketContext.pointee = nil
    let served = Unmanaged<ServedConnection>.fromOpaque(stored).takeRetainedValue()
    server.deadlines.closed(served.deadlines)
  }
}

private let refusalCallback: tpns_mhd_refusal_callback = { context, status in
  guard let context else { return }
  Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().refused(Int(status))
}

private let completedCallback: MHD_RequestCompletedCallback = { context, _, state, _ in
  guard let context, let state, let pending = state.pointee else { return }
  state.pointee = nil
  let request = Unmanaged<PendingRequest>.fromOpaque(pending).takeRetainedValue()
  if let connection = request.connection {
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().deadlines.answered(connection)
  }
}

private let accessHandler: MHD_AccessHandlerCallback = {
  context, connection, _, method, _, uploadData, uploadDataSize, state in
  guard let context, let connection, let method, let uploadDataSize, let state else {
    return MHD_Result(rawValue: 0)!
  }
  if state.pointee == nil {
    state.pointee = Unmanaged.passRetained(PendingRequest(target: "/", connection: connection))
      .toOpaque()
  }
  let pending = Unmanaged<PendingRequest>.fromOpaque(state.pointee!).takeUnretainedValue()

  let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
  if !pending.hasStarted {
    // First call: headers only.
    pending.hasStarted = true
    if let tracked = pending.connection { server.deadlines.headReceived(tracked) }
    // A body framed two ways is refused unread, and the connection closed: what follows
    // on it cannot be told apart from the body.
    if let reason = ambiguousFraming(connection) {
      if let tracked = pending.connection { server.deadlines.requestReceived(tracked) }
      let response = OutgoingResponse.error(.badRequest(reason))
      return response.body.withUnsafeBytes { body in
        tpns_mhd_respond(
          connection, UInt32(response.status), response.contentType, nil, nil, body.baseAddress,
          body.count, true)
      }
    }
    // A declared length over the limit is answered now, body unread: a client that sent
    // `Expect: 100-continue` gets the 413 instead of a 100 Continue and never uploads,
    // and no one streams a terabyte into the void. libmicrohttpd then closes the
    // connection.
    if let length = header(connection, "Content-Length").flatMap({ Int($0) }),
      length > HTTPServer.maximumBodySize
    {
      pending.isBodyTooLarge = true
      return respond(server, pending, connection, method)
    }
    return MHD_Result(rawValue: 1)!
  }
  if uploadDataSize.pointee > 0 {
    let count = uploadDataSize.pointee
    if !pending.isBodyTooLarge, let uploadData {
      if pending.body.count + count > HTTPServer.maximumBodySize {
        pending.isBodyTooLarge = true
        pending.body = []
      } else {
        uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
          pending.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        }
      }
    }
    uploadDataSize.pointee = 0
    return MHD_Result(rawValue: 1)!
  }

  return respond(server, pending, connection, method)
}

/// Hands the request gathered in `pending` to the server and queues its answer.
private func respond(
  _ server: HTTPServer, _ pending: PendingRequest, _ connection: OpaquePointer,
  _ method: UnsafePointer<CChar>
) -> MHD_Result {
  if let tracked = pending.connection { server.deadlines.requestReceived(tracked) }
  let target = pending.target
  let mark = target.utf8.firstIndex(of: UInt8(ascii: "?"))
  let request = IncomingRequest(
    method: String(cString: method), path: mark.map { String(target[..<$0]) } ?? target,
    query: mark.map { String(target[target.utf8.index(after: $0)...]) },
    contentType: header(connection, "Content-Type"), body: pending.body,
    isBodyTooLarge: pending.isBodyTooLarge, host: header(connection, "Host"),
    origin: header(connection, "Origin"), fetchSite: header(connection, "Sec-Fetch-Site"),
    fetchMode: header(connection, "Sec-Fetch-Mode"))
  pending.body = []
  let response = server.handler(request)
  // No answer queued: libmicrohttpd closes the connection.
  if response.drops { return MHD_Result(rawValue: 0)! }
  if let stream = response.stream {
    if let live = stream as? any LiveBodyStream {
      live.attach(liveConnection(server, pending, connection))
    }
    return tpns_mhd_respond_stream(
      connection, UInt32(response.status), response.contentType, response.header?.name,
      response.header?.value, streamReader,
      Unmanaged.passRetained(StreamedBody(stream, connection: connection)).toOpaque(),
      streamRelease)
  }
  // A small answer: the connection's last one again when it is the same.
  if response.header == nil, response.body.count <= ReusableAnswer.maximumBody,
    let served = pending.served
  {
    if let last = served.lastAnswer, last.answers(response) {
      return MHD_queue_response(connection, UInt32(response.status), last.response)
    }
    guard
      let answer = ReusableAnswer(
        status: response.status, contentType: response.contentType, body: response.body)
    else { return MHD_Result(rawValue: 0)! }
    served.lastAnswer = answer
    return MHD_queue_response(connection, UInt32(response.status), answer.response)
  }
  return response.body.withUnsafeBytes { body in
    tpns_mhd_respond(
      connection, UInt32(response.status), response.contentType, response.header?.name,
      response.header?.value, body.baseAddress, body.count, false)
  }
}

private func liveConnection(
  _ server: HTTPServer, _ pending: PendingRequest, _ connection: OpaquePointer
) -> LiveConnection {
  // Safe to send: `MHD_resume_connection` may be called from any thread, and the stream
  // stops calling it (``LiveBodyStream/detach()``) before the connection is freed.
  nonisolated(unsafe) let suspended = connection
  let tracked = pending.connection
  let deadlines = server.deadlines
  // The client's address, as text; empty when it cannot be told. 64: INET6_ADDRSTRLEN
  // (46) and a margin.
  let peer = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
    tpns_mhd_connection_peer(connection, buffer.baseAddress!, buffer.count)
      ? String(cString: buffer.baseAddress!) : ""
  }
  return LiveConnection(
    peer: peer, resume: { MHD_resume_connection(suspended) },
    unsentBytes: { tracked.map { deadlines.unsentBytes($0) } ?? 0 },
    abort: { tracked.map { deadlines.abort($0) } })
}

/// Why the headers of `connection`'s request do not frame its body one clear way.
private func ambiguousFraming(_ connection: OpaquePointer) -> String? {
  switch tpns_mhd_request_framing(connection) {
  case .TPNS_MHD_FRAMING_CLEAR:
    return nil
  case .TPNS_MHD_FRAMING_REPEATED_LENGTH:
    return "Content-Length is given more than once: a body is framed one way only"
  case .TPNS_MHD_FRAMING_LENGTH_AND_TRANSFER_ENCODING:
    return "Content-Length and Transfer-Encoding are given together: a body is framed one "
      + "way only"
  case .TPNS_MHD_FRAMING_UNSUPPORTED_TRANSFER_ENCODING:
    return "Transfer-Encoding must be 'chunked', given once"
  case .TPNS_MHD_FRAMING_MALFORMED_NAME:
    return "a header name must be a token followed at once by ':', with no space before "
      + "the colon"
  case .TPNS_MHD_FRAMING_FOLDED_LINE:
    return "a header line continues on the next line (obs-fold): send each header on one line"
  }
}

/// A streamed response's body between libmicrohttpd's reads: the piece being sent.
/// Owned by libmicrohttpd (retained) until `streamRelease`; read on one thread at a time.
private final class StreamedBody {
  let stream: any HTTPBodyStream
  let connection: OpaquePointer
  var piece: [UInt8] = []
  var offset = 0

  init(_ stream: any HTTPBodyStream, connection: OpaquePointer) {
    self.stream = stream
    self.connection = connection
  }
}

/// Copies the next bytes of a streamed body into libmicrohttpd's `buffer` (at most
/// `capacity`); -1 (`MHD_CONTENT_READER_END_OF_STREAM`) after the last; 0 when a
/// live stream has nothing yet (its connection then suspended until it resumes it).
private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, capacity in
  guard let context, let buffer else { return -1 }
  let body = Unmanaged<StreamedBody>.fromOpaque(context).takeUnretainedValue()
  while body.offset == body.piece.count {
    let piece: [UInt8]?
    if let live = body.stream as? any LiveBodyStream {
      let connection = body.connection
      piece = live.nextPiece(suspend: { MHD_suspend_connection(connection) })
      if piece?.isEmpty == true { return 0 }
    } else {
      piece = body.stream.nextPiece()
    }
    guard let next = piece else { return -1 }
    body.piece = next
    body.offset = 0
  }
  let count = min(capacity, body.piece.count - body.offset)
  body.piece.withUnsafeBytes { bytes in
    UnsafeMutableRawPointer(buffer).copyMemory(
      from: bytes.baseAddress! + body.offset, byteCount: count)
  }
  body.offset += count
  return count
}

private let streamRelease: MHD_ContentReaderFreeCallback = { context in
  guard let context else { return }
  let body = Unmanaged<StreamedBody>.fromOpaque(context).takeRetainedValue()
  (body.stream as? any LiveBodyStream)?.detach()
}

private func header(_ connection: OpaquePointer, _ name: String) -> String? {
  MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
}
