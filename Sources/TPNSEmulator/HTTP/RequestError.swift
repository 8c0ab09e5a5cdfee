/// A request the emulator refuses: the status to answer and a one-line reason.
struct RequestError: Error, Sendable, Equatable {
  var status: Int
  var reason: String
  /// An extra header to send with the error (`Allow` on a 405).
  var header: HTTPHeader?

  init(_ status: Int, _ reason: String, header: HTTPHeader? = nil) {
    self.status = status
    self.reason = reason
    self.header = header
  }

  /// 400 Bad Request.
  static func badRequest(_ reason: String) -> RequestError { RequestError(400, reason) }

  /// 413 Content Too Large: a body over ``HTTPServer/maximumBodySize`` (and dropped).
  static var bodyTooLarge: RequestError {
    RequestError(413, "the body is larger than \(HTTPServer.maximumBodySize) bytes")
  }

  /// 405 Method Not Allowed, naming the methods allowed.
  static func methodNotAllowed(_ method: String, allowed: [String]) -> RequestError {
    RequestError(
      405, "method \(method) is not allowed here (allowed: \(allowed.joined(separator: ", ")))",
      header: HTTPHeader(name: "Allow", value: allowed.joined(separator: ", ")))
  }

  /// Runs `body`, a registry access: a command's refusal is rethrown as it is, a
  /// database file deleted or replaced becomes a 503 (retry once tpns-server is
  /// restarted), any other failure (the database's) a 500.
  static func mappingDatabaseFailures<T>(_ body: () throws -> T) throws(RequestError) -> T {
    do {
      return try body()
    } catch let error as RequestError {
      throw error
    } catch let error as DatabaseFileError {
      throw RequestError(503, error.description)
    } catch {
      throw RequestError(500, "database: \(error)")
    }
  }
}
