import TPNSProtocol

/// Sends TPNS requests to one server by one method. One call is one attempt; retries
/// are the caller's (the pipeline's, with a ``RetryPolicy``).
///
///     let client = TPNSClient(server: url, method: .post, transport: transport)
///     let response = try client.send(.device(uid: uid))
public struct TPNSClient: Sendable {
  /// One attempt and what came of it, as `--verbose` shows it.
  public struct Exchange: Sendable, Equatable {
    /// GET or POST.
    public var method: HTTPRequest.Method
    /// The URL as sent, query and credentials included: a GET's holds the
    /// token (see ``shownURL(showingTokens:)``).
    public var url: String
    /// The command of the request sent.
    public var command: CommandName
    /// Whether it was sent in the older form (``TPNSClient/legacy``).
    public var isLegacy = false
    /// The HTTP status; nil when no response came.
    public var status: Int?
    /// Why no response came.
    public var failure: TransportError?
    /// From the start of the request to its end.
    public var duration: Duration

    /// ``url`` as output shows it: credentials as `***@`; `token` and `udid` (an iOS
    /// phone's is its token) masked unless `showingTokens`; TPNS's other parameters as
    /// sent; any other query value (the server URL's own: a key, say) as `***`.
    public func shownURL(showingTokens: Bool = false) -> String {
      ServerURL(url).redacted { name, value in
        guard Self.names.contains(String(name)) else { return "***" }
        guard !showingTokens, name == "token" || name == "udid" else { return String(value) }
        return MaskedSecret(value).description
      }
    }

    /// The names TPNS's commands send, `cmd` included.
    private static let names = Set(
      ["cmd"] + CommandName.allCases.flatMap { $0.parameters.map(\.name) })

    /// The `cmd` value sent: the command's older name if sent in the older form.
    public var sentName: String {
      isLegacy ? command.legacyName ?? command.rawValue : command.rawValue
    }
  }

  /// The `/tpns` URL.
  public let server: String
  /// POST (the default) or GET.
  public let method: HTTPRequest.Method
  /// Whether requests go in the older form firmware sends: to the legacy
  /// path, with the older command names (``TPNSRequest/httpRequest(server:method:legacy:)``).
  public let legacy: Bool
  /// The HTTP transport.
  public let transport: CurlTransport
  /// Called after every attempt (`--verbose`), on the thread that sent it.
  public let log: (@Sendable (Exchange) -> Void)?

  /// A client of `server`; `log`, if given, hears of every attempt.
  public init(
    server: String, method: HTTPRequest.Method = .post, legacy: Bool = false,
    transport: CurlTransport, log: (@Sendable (Exchange) -> Void)? = nil
  ) {
    self.server = server
    self.method = method
    self.legacy = legacy
    self.transport = transport
    self.log = log
  }

  /// Sends `request` once, within `timeout` if given (else the transport's
  /// limit): a 2xx response is returned, anything else thrown.
  public func send(
    _ request: TPNSRequest, timeout: Duration? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws(RequestFailure) -> HTTPResponse {
    var http = request.httpRequest(server: server, method: method, legacy: legacy)
    http.timeout = timeout
    let start = ContinuousClock.now
    var status: Int?
    var failure: TransportError?
    defer {
      log?(
        Exchange(
          method: http.method, url: http.url, command: request.name, isLegacy: legacy,
          status: status, failure: failure, duration: .now - start))
    }
    let response: HTTPResponse
    do {
      response = try transport.perform(http, isCancelled: isCancelled)
    } catch {
      failure = error
      throw .transport(error)
    }
    status = response.status
    guard response.isSuccess else {
      throw .status(response.status, body: response.body, retryAfter: response.retryAfter)
    }
    return response
  }
}
