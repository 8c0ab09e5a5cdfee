/// One HTTP request as the transport sends it.
public struct HTTPRequest: Sendable, Equatable {
  /// The methods TPNS is spoken with.
  public enum Method: String, Sendable {
    case get = "GET"
    case post = "POST"
  }

  /// GET or POST.
  public var method: Method
  /// The whole URL, query included.
  public var url: String
  /// The body of a POST.
  public var body: [UInt8]
  /// The body's media type.
  public var contentType: String?
  /// The limit for this request, if shorter than the transport's.
  public var timeout: Duration?

  /// A request; `body` and `contentType` only matter for POST.
  public init(
    method: Method, url: String, body: [UInt8] = [], contentType: String? = nil,
    timeout: Duration? = nil
  ) {
    self.method = method
    self.url = url
    self.body = body
    self.contentType = contentType
    self.timeout = timeout
  }

  /// The URL without its query, for messages: a GET's query holds the
  /// token, and credentials (`user:password@`) are shown as `***@`.
  public var urlWithoutQuery: String {
    ServerURL(String(url.prefix { $0 != "?" && $0 != "#" })).redacted
  }
}

/// What the server answered: any status, success or not, with its body.
public struct HTTPResponse: Sendable, Equatable {
  /// The HTTP status code.
  public var status: Int
  /// The body, as text (invalid UTF-8 is replaced).
  public var body: String
  /// The `Retry-After` header, if the server sent one.
  public var retryAfter: String?

  /// A response.
  public init(status: Int, body: String, retryAfter: String? = nil) {
    self.status = status
    self.body = body
    self.retryAfter = retryAfter
  }

  /// Whether the status is 2xx.
  public var isSuccess: Bool {
    (200..<300).contains(status)
  }
}
