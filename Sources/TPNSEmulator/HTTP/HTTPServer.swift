import CMicroHTTPD
import Locking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An HTTP/1.1 server over GNU libmicrohttpd that hands each complete request to a
/// handler and sends back what it returns.
///
/// libmicrohttpd runs one poll thread (or one per worker of a pool); `handler` is
/// called on those threads, concurrently, so it must be thread-safe. Request bodies are
/// accumulated up to ``maximumBodySize``; for a larger one the handler sees
/// ``HTTPRequest/isBodyTooLarge`` and an empty body: at once, body unread, when the
/// `Content-Length` declares it, else (chunked) once it has been read and dropped.
/// A request libmicrohttpd answers by itself (a request line or header that does not
/// fit in ``connectionMemoryLimit``) never reaches `handler`; `refused` is told its
/// status instead.
///
/// ```swift
/// let server = HTTPServer { request in .text(200, "ok\n") }
/// let port = try server.start(host: "127.0.0.1", port: 0)
/// ```
final class HTTPServer: @unchecked Sendable {
  // @unchecked: `daemon` is only touched with `lock` held; `handler`, `refused` and
  // `refusalSink` are immutable.

  /// Largest body accepted: 1 MiB.
  static let maximumBodySize = 1 << 20

  /// Seconds a connection may stay idle.
  static let connectionTimeout: UInt32 = 30

  /// Longest request target (path and query) answered: 8 KiB, as nginx's and Apache's
  /// default request line. A longer one is refused with 414 (a POST body has no such
  /// limit, see ``maximumBodySize``).
  static let maximumTargetLength = 8 * 1024

  /// Per-connection memory for the request line and headers. libmicrohttpd answers a
  /// line or header that does not fit by itself (414 or 431, with an HTML body the
  /// emulator cannot replace), so it is twice ``maximumTargetLength``: a target up to
  /// about 15 KiB still reaches the router, which answers its own 414. libmicrohttpd
  /// clears this pool after every request, so it is kept small (a larger one costs
  /// throughput on every keep-alive request).
  static let connectionMemoryLimit = 16 * 1024

  /// Simultaneous connections.
  static let connectionLimit: UInt32 = 1000

  typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

  /// Receives the status of a request libmicrohttpd answered by itself.
  typealias RefusalHandler = @Sendable (Int) -> Void

  private let handler: Handler
  private let refused: RefusalHandler
  /// What the C logger calls back (`refusalCallback` with `self`): allocated here,
  /// freed in `deinit`, after the daemon that uses it is stopped.
  private let refusalSink: UnsafeMutablePointer<tpns_mhd_refusal_sink>
  private let lock = Lock()
  private var daemon: OpaquePointer?

  init(handler: @escaping Handler, refused: @escaping RefusalHandler = { _ in }) {
    self.handler = handler
    self.refused = refused
    refusalSink = .allocate(capacity: 1)
    refusalSink.initialize(
      to: tpns_mhd_refusal_sink(
        callback: refusalCallback, context: Unmanaged.passUnretained(self).toOpaque()))
  }

  deinit {
    stop()
    refusalSink.deallocate()
  }

  /// Starts listening on `host`:`port` (0: a free port) with `threads` poll threads,
  /// and returns the bound port.
  func start(host: String, port: UInt16, threads: Int) throws(EmulatorError) -> UInt16 {
    try lock.withLock { () throws(EmulatorError) -> UInt16 in
      guard daemon == nil else { throw EmulatorError.alreadyRunning }
      var code: Int32 = 0
      // Unretained: the daemon is stopped (in `stop()` or `deinit`) before `self` goes.
      let context = Unmanaged.passUnretained(self).toOpaque()
      guard
        let started = tpns_mhd_start(
          host, port, accessHandler, uriCallback, completedCallback, context, refusalSink,
          UInt32(max(1, threads)), Self.connectionTimeout, Self.connectionMemoryLimit,
          Self.connectionLimit, &code)
      else {
        throw EmulatorError.cannotListen(
          host: host, port: port, reason: String(cString: strerror(code)))
      }
      daemon = started
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
  }

  /// Answers one complete request.
  fileprivate func respond(to request: HTTPRequest) -> HTTPResponse {
    handler(request)
  }

  /// Reports a request libmicrohttpd answered with `status` by itself.
  fileprivate func reportRefusal(_ status: Int) {
    refused(status)
  }
}

/// The state of one request between libmicrohttpd's callbacks: created by the URI
/// callback, owned through `*con_cls`, released when the request completes.
private final class PendingRequest {
  let target: String
  var body: [UInt8] = []
  var isBodyTooLarge = false
  var hasStarted = false

  init(target: String) {
    self.target = target
  }
}

/// libmicrohttpd calls this with the raw target before parsing it; the raw query is
/// what the emulator decodes strictly (libmicrohttpd's own parsing is lenient).
private let uriCallback: tpns_mhd_uri_callback = { _, uri, _ in
  Unmanaged.passRetained(PendingRequest(target: String(cString: uri))).toOpaque()
}

private let refusalCallback: tpns_mhd_refusal_callback = { context, status in
  guard let context else { return }
  Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().reportRefusal(Int(status))
}

private let completedCallback: MHD_RequestCompletedCallback = { _, _, state, _ in
  guard let state, let pending = state.pointee else { return }
  Unmanaged<PendingRequest>.fromOpaque(pending).release()
  state.pointee = nil
}

private let accessHandler: MHD_AccessHandlerCallback = {
  context, connection, _, method, _, uploadData, uploadDataSize, state in
  guard let context, let connection, let method, let uploadDataSize, let state else {
    return MHD_Result(rawValue: 0)!
  }
  if state.pointee == nil {
    state.pointee = Unmanaged.passRetained(PendingRequest(target: "/")).toOpaque()
  }
  let pending = Unmanaged<PendingRequest>.fromOpaque(state.pointee!).takeUnretainedValue()

  let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
  if !pending.hasStarted {
    // First call: headers only. A declared length over the limit is answered now, body
    // unread: a client that sent `Expect: 100-continue` gets the 413 instead of a
    // 100 Continue and never uploads, and no one streams a terabyte into the void.
    // libmicrohttpd then closes the connection.
    pending.hasStarted = true
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
  let (path, query) = HTTPRequest.split(target: pending.target)
  let request = HTTPRequest(
    method: String(cString: method), path: path, query: query,
    contentType: header(connection, "Content-Type"), body: pending.body,
    isBodyTooLarge: pending.isBodyTooLarge, host: header(connection, "Host"),
    origin: header(connection, "Origin"), fetchSite: header(connection, "Sec-Fetch-Site"))
  pending.body = []
  let response = server.respond(to: request)
  return response.body.withUnsafeBytes { body in
    tpns_mhd_respond(
      connection, UInt32(response.status), response.contentType, response.header?.name,
      response.header?.value, body.baseAddress, body.count)
  }
}

private func header(_ connection: OpaquePointer, _ name: String) -> String? {
  MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
}
