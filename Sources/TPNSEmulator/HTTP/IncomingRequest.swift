/// One HTTP request as the emulator's router sees it.
struct IncomingRequest: Sendable {
  var method: String
  /// Still percent-encoded, without the query.
  var path: String
  /// The raw query after `?`.
  var query: String?
  var contentType: String?
  /// Empty when ``isBodyTooLarge``.
  var body: [UInt8]
  /// Whether the body was larger than ``HTTPServer/maximumBodySize`` (and dropped).
  var isBodyTooLarge: Bool
  /// The `Host`, `Origin`, `Sec-Fetch-Site` and `Sec-Fetch-Mode` headers, if any: who
  /// the request is for and which web page (if any) sent it (see ``AccessPolicy``).
  var host: String? = nil
  var origin: String? = nil
  var fetchSite: String? = nil
  var fetchMode: String? = nil

  /// Refuses a request over the server's limits: a body over
  /// ``HTTPServer/maximumBodySize`` (413, the body was dropped), a target over
  /// ``HTTPServer/maximumTargetLength`` (414). A refused request must not be acted on.
  func checkSize() throws(RequestError) {
    guard !isBodyTooLarge else {
      throw RequestError(413, "the body is larger than \(HTTPServer.maximumBodySize) bytes")
    }
    let length = path.utf8.count + (query.map { $0.utf8.count + 1 } ?? 0)
    guard length <= HTTPServer.maximumTargetLength else {
      throw RequestError(
        414,
        "the request target has \(length) bytes, more than \(HTTPServer.maximumTargetLength): "
          + "send the parameters in a POST form body")
    }
  }
}
