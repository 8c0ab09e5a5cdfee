import TPNSProtocol

extension TPNSRequest {
  /// The HTTP request that sends this request to `server` by `method`: a
  /// GET with the form as its query, or a POST of the form body. `legacy`:
  /// in the older form firmware sends, to the server's legacy path
  /// (``ServerURL/legacyService``) with the command's older name
  /// (``legacyParameters``).
  ///
  ///     TPNSRequest.device(uid: uid).httpRequest(server: server, method: .post).body
  public func httpRequest(
    server: String, method: HTTPRequest.Method, legacy: Bool = false
  ) -> HTTPRequest {
    let url = legacy ? ServerURL(server).legacyService : server
    let form = legacy ? Self.formBody(of: legacyParameters) : formBodyBytes
    return switch method {
    case .get:
      HTTPRequest(method: .get, url: Self.url(server: url, query: form))
    case .post:
      HTTPRequest(
        method: .post, url: url, body: form, contentType: "application/x-www-form-urlencoded")
    }
  }
}
