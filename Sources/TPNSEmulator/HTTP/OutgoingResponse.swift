import FoundationEssentials

/// A response: status, content type, at most one extra header, body (or a stream).
struct OutgoingResponse: Sendable {
  var status: Int
  var contentType: String
  /// One extra header (`Allow`, `Retry-After`), when needed.
  var header: HTTPHeader?
  var body: [UInt8]
  /// When set, the body sent instead of `body`, piece by piece, ended by closing the
  /// connection.
  var stream: (any HTTPBodyStream)? = nil
  /// Whether the connection is closed without an answer (a fault rule's `drop`).
  var drops = false

  static let plainText = "text/plain; charset=utf-8"

  static func text(_ status: Int, _ text: String) -> OutgoingResponse {
    OutgoingResponse(status: status, contentType: plainText, header: nil, body: Array(text.utf8))
  }

  /// The one-line error body every rejection carries: `error: <reason>\n`.
  static func error(_ failure: RequestError) -> OutgoingResponse {
    var response = text(failure.status, "error: \(failure.reason)\n")
    response.header = failure.header
    response.drops = failure.drops
    return response
  }

  /// A JSON response, 200 unless `status` says otherwise (pretty-printed, keys sorted,
  /// so that `curl` output reads well).
  static func json(_ value: some Encodable, status: Int = 200) -> OutgoingResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      var body = Array(try encoder.encode(value))
      body.append(UInt8(ascii: "\n"))
      return OutgoingResponse(
        status: status, contentType: "application/json", header: nil, body: body)
    } catch {
      return .error(RequestError(500, "cannot encode the answer: \(error)"))
    }
  }
}

/// One response header.
struct HTTPHeader: Sendable, Equatable {
  var name: String
  var value: String
}
