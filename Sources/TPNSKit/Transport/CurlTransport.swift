import CCurl
import DurationFormatting
import Locking
import Reactive

/// Sends HTTP requests through libcurl, one at a time, over one reused easy handle
/// (keep-alive). TLS verification is always on, redirects are not followed, only
/// http and https are allowed, and a loopback server is reached directly, whatever
/// the proxy variables say. Any HTTP answer is a response, not an error.
///
///     let transport = try CurlTransport(options: TransportOptions(timeout: .seconds(10)))
///     let response = try transport.perform(HTTPRequest(method: .get, url: url))
public final class CurlTransport: @unchecked Sendable {
  // @unchecked: the easy handle is only used while holding `lock`.
  private let handle: UnsafeMutableRawPointer
  private let lock = Lock()
  /// The options every request is made with.
  public let options: TransportOptions

  /// A transport; fails only if libcurl cannot be initialised.
  public init(options: TransportOptions = TransportOptions()) throws(TransportError) {
    if let failure = tpns_curl_load() {
      throw .libraryMissing(reason: String(cString: failure))
    }
    guard let handle = tpns_curl_easy_init() else {
      throw .failed(reason: "libcurl could not be initialised")
    }
    self.handle = handle
    self.options = options
  }

  deinit {
    tpns_curl_easy_cleanup(handle)
  }

  /// The version of the libcurl loaded and its TLS library (`7.88.1, GnuTLS/3.7.9`),
  /// or "unavailable".
  public static var libraryVersion: String {
    String(cString: tpns_curl_version())
  }

  /// Sends `request` and waits for the whole response; `isCancelled` is polled
  /// during the transfer (at least once a second) and aborts it when true.
  public func perform(
    _ request: HTTPRequest, isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws(TransportError) -> HTTPResponse {
    lock.lock()
    defer { lock.unlock() }
    // Schemes are case-insensitive (RFC 3986), as for libcurl itself.
    let scheme = request.url.prefix(8).lowercased()
    guard scheme.hasPrefix("http://") || scheme.hasPrefix("https://") else {
      throw .invalidURL(request.urlWithoutQuery)
    }
    tpns_curl_easy_reset(handle)
    let transfer = Transfer(limit: options.maximumResponseSize, isCancelled: isCancelled)
    let timeout = request.timeout.map { min($0, options.timeout) } ?? options.timeout
    let context = Unmanaged.passUnretained(transfer).toOpaque()
    var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    var headers: UnsafeMutablePointer<curl_slist>?
    defer { tpns_curl_slist_free_all(headers) }

    let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errorText in
      var setup = CURLE_OK
      func set(_ result: CURLcode) { if setup == CURLE_OK { setup = result } }
      set(tpns_curl_set_string(handle, CURLOPT_URL, request.url))
      if ServerURL(request.url).isLoopback {
        // Never through `http_proxy`/`all_proxy`: a proxy would read the token in
        // clear, and its own 127.0.0.1 is another machine.
        set(tpns_curl_set_string(handle, CURLOPT_PROXY, ""))
      }
      set(tpns_curl_allow_http_only(handle))
      set(tpns_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
      set(
        tpns_curl_set_long(
          handle, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeout.curlMilliseconds))
      set(tpns_curl_set_long(handle, CURLOPT_TIMEOUT_MS, timeout.curlMilliseconds))
      set(tpns_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
      set(tpns_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
      set(tpns_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0))
      set(tpns_curl_set_string(handle, CURLOPT_USERAGENT, options.userAgent))
      if let caCertificatePath = options.caCertificatePath {
        set(tpns_curl_set_string(handle, CURLOPT_CAINFO, caCertificatePath))
        // Only this file: libcurl's default CA directory would still add the
        // system's CAs, so a public CA could vouch for a private server.
        set(tpns_curl_set_pointer(handle, CURLOPT_CAPATH, nil))
      }
      set(tpns_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorText.baseAddress))
      set(tpns_curl_set_write_callback(handle, Transfer.receiveBody, context))
      set(tpns_curl_set_header_callback(handle, Transfer.receiveHeader, context))
      set(tpns_curl_set_progress_callback(handle, Transfer.progress, context))
      switch request.method {
      case .get:
        set(tpns_curl_set_long(handle, CURLOPT_HTTPGET, 1))
      case .post:
        set(tpns_curl_set_long(handle, CURLOPT_POST, 1))
        // libcurl copies the body (CURLOPT_COPYPOSTFIELDS); an empty one needs a valid pointer.
        if request.body.isEmpty {
          set(tpns_curl_set_post_body(handle, "", 0))
        } else {
          set(
            request.body.withUnsafeBytes { bytes in
              tpns_curl_set_post_body(
                handle, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), bytes.count)
            })
        }
        if let contentType = request.contentType {
          headers = tpns_curl_slist_append(headers, "Content-Type: \(contentType)")
        }
        // No "Expect: 100-continue" round trip for small form bodies.
        headers = tpns_curl_slist_append(headers, "Expect:")
        set(tpns_curl_set_slist(handle, CURLOPT_HTTPHEADER, headers))
      }
      guard setup == CURLE_OK else { return setup }
      // The callbacks reach `transfer` through an unretained pointer.
      return withExtendedLifetime(transfer) { tpns_curl_easy_perform(handle) }
    }
    // The handle must not keep pointing at the buffer that goes away now.
    _ = tpns_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, nil)

    guard code == CURLE_OK else {
      let detail = String(
        decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw error(
        for: code, detail: detail, url: request.urlWithoutQuery, timeout: timeout,
        transfer: transfer)
    }
    var status = 0
    _ = tpns_curl_get_response_code(handle, &status)
    return HTTPResponse(
      status: status, body: String(decoding: transfer.body, as: UTF8.self),
      retryAfter: transfer.retryAfter)
  }

  private func error(
    for code: CURLcode, detail: String, url: String, timeout: Duration, transfer: Transfer
  ) -> TransportError {
    let reason = detail.isEmpty ? String(cString: tpns_curl_easy_strerror(code)) : detail
    switch code {
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
      return .unreachable(url: url, reason: reason)
    case CURLE_OPERATION_TIMEDOUT:
      // A connect timeout is an unreachable server; a slow answer is a timeout.
      if reason.contains("onnect") {
        return .unreachable(url: url, reason: reason)
      }
      return .timedOut(url: url, after: timeout)
    case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
      return .connectionLost(url: url, reason: reason)
    case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE,
      CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
      CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
      return .tls(url: url, reason: reason)
    case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
      return .invalidURL(url)
    case CURLE_WRITE_ERROR where transfer.isTooLarge:
      return .responseTooLarge(limit: options.maximumResponseSize)
    case CURLE_ABORTED_BY_CALLBACK:
      return .cancelled
    default:
      return .failed(reason: reason)
    }
  }
}

/// The state of one transfer, reached from libcurl's C callbacks.
private final class Transfer {
  var body: [UInt8] = []
  var retryAfter: String?
  var isTooLarge = false
  let limit: Int
  let isCancelled: @Sendable () -> Bool

  init(limit: Int, isCancelled: @escaping @Sendable () -> Bool) {
    self.limit = limit
    self.isCancelled = isCancelled
  }

  static func from(_ context: UnsafeMutableRawPointer?) -> Transfer {
    Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
  }

  static let receiveBody: tpns_curl_data_callback = { data, size, count, context in
    let transfer = Transfer.from(context)
    let length = size * count
    guard transfer.body.count + length <= transfer.limit else {
      transfer.isTooLarge = true
      return 0
    }
    if let data {
      transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
    }
    return length
  }

  static let receiveHeader: tpns_curl_data_callback = { data, size, count, context in
    let transfer = Transfer.from(context)
    let length = size * count
    guard let data else { return length }
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    // A new status line (after a 100 Continue, say) starts a new header block.
    if line.hasPrefix("HTTP/") { transfer.retryAfter = nil }
    if let colon = line.firstIndex(of: ":"),
      line[..<colon].lowercased() == "retry-after"
    {
      transfer.retryAfter = line[line.index(after: colon)...].trimmingWhitespace()
    }
    return length
  }

  static let progress: tpns_curl_progress_callback = { context, _, _, _, _ in
    Transfer.from(context).isCancelled() ? 1 : 0
  }
}

extension Duration {
  /// Whole milliseconds, for libcurl's `_MS` options (at least 1, so 0 never means "no limit").
  fileprivate var curlMilliseconds: Int {
    max(1, Int(rounded(to: .milliseconds)))
  }
}
