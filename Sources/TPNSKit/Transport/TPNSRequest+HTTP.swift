import TPNSProtocol

extension TPNSRequest {
  /// The HTTP request that sends this request to `server` by `method`: a
  /// GET with the form as its query, or a POST of the form body.
  ///
  ///     TPNSRequest.device(uid: uid).httpRequest(server: server, method: .post).body
  public func httpRequest(server: String, method: HTTPRequest.Method) -> HTTPRequest {
    switch method {
    case .get:
      HTTPRequest(method: .get, url: url(server: server))
    case .post:
      HTTPRequest(
        method: .post, url: server, body: formBodyBytes,
        contentType: "application/x-www-form-urlencoded")
    }
  }
}
