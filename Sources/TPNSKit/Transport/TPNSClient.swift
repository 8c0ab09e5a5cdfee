/// Sends TPNS commands to one server: the transport, the server URL and the
/// method together. One call is one attempt; retries are the caller's (the
/// pipeline's, on its scheduler, with a ``RetryPolicy``).
///
///     let client = TPNSClient(server: url, method: .post, transport: transport)
///     let response = try client.send(.device(uid: uid))
public struct TPNSClient: Sendable {
  /// The `/tpns` URL.
  public let server: String
  /// POST (the default) or GET.
  public let method: HTTPRequest.Method
  /// The HTTP transport.
  public let transport: CurlTransport

  /// A client of `server`.
  public init(server: String, method: HTTPRequest.Method = .post, transport: CurlTransport) {
    self.server = server
    self.method = method
    self.transport = transport
  }

  /// Sends `command` once, within `timeout` if given (else the transport's
  /// limit): a 2xx response is returned, anything else thrown.
  public func send(
    _ command: Command, timeout: Duration? = nil,
    isCancelled: @escaping @Sendable () -> Bool = { false }
  ) throws(RequestFailure) -> HTTPResponse {
    var request = command.request(server: server, method: method)
    request.timeout = timeout
    let response: HTTPResponse
    do {
      response = try transport.perform(request, isCancelled: isCancelled)
    } catch {
      throw .transport(error)
    }
    guard response.isSuccess else { throw RequestFailure(response) }
    return response
  }
}
