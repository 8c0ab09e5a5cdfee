/// A request the emulator refuses: the status to answer and a one-line reason.
struct RequestError: Error, Sendable, Equatable {
  var status: Int
  var reason: String
  /// `Allow` on a 405.
  var header: HTTPHeader?
  /// Whether the connection is closed without an answer (a fault rule's `drop`).
  var drops = false

  init(_ status: Int, _ reason: String, header: HTTPHeader? = nil) {
    self.status = status
    self.reason = reason
    self.header = header
  }

  static func badRequest(_ reason: String) -> RequestError { RequestError(400, reason) }

  /// What the log says of a request libmicrohttpd answered with `status` by itself,
  /// unread, when it was too large to read (414, 431); nil for another status (a
  /// malformed request).
  static func unread(status: Int) -> RequestError? {
    guard status == 414 || status == 431 else { return nil }
    let what = status == 414 ? "line is" : "line and headers are"
    return RequestError(
      status,
      "the request \(what) longer than \(HTTPServer.connectionMemoryLimit) bytes and "
        + "\(status == 414 ? "was" : "were") not read: send the parameters in a POST form body")
  }

  static func methodNotAllowed(_ method: String, allowed: [String]) -> RequestError {
    RequestError(
      405,
      "method \(Printable(method)) is not allowed here (allowed: \(allowed.joined(separator: ", ")))",
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
