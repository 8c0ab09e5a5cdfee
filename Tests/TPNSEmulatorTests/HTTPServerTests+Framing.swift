import Foundation
import Testing

@testable import TPNSEmulator

/// A request whose headers frame its body two ways (request smuggling: a proxy in
/// front reads one body, the emulator another, and the rest is taken for a second
/// request). libmicrohttpd took the first `Content-Length`, or `Transfer-Encoding`
/// over `Content-Length`, silently; it read `Transfer-Encoding : chunked` as another
/// header, and joined a folded line onto the header's name.
extension HTTPServerTests {
  struct Framing: Sendable, CustomStringConvertible {
    var description: String
    var headers: String
    var body: String
    var reason: String

    static let form = "cmd=device&uid=\(TestEmulator.uid(1))"
    static let chunked = "23\r\n\(form)\r\n0\r\n\r\n"
    static let twice = "Content-Length is given more than once: a body is framed one way only"
    static let both =
      "Content-Length and Transfer-Encoding are given together: a body is framed one way only"
    static let coding = "Transfer-Encoding must be 'chunked', given once"
    static let name =
      "a header name must be a token followed at once by ':', with no space before the colon"
    static let folded =
      "a header line continues on the next line (obs-fold): send each header on one line"
  }

  @Test(
    "a body framed two ways is refused with 400 and the connection closed, nothing run",
    arguments: [
      Framing(
        description: "two lengths", headers: "Content-Length: 10\r\nContent-Length: 35\r\n",
        body: Framing.form, reason: Framing.twice),
      Framing(
        description: "one length twice", headers: "Content-Length: 35\r\nContent-Length: 35\r\n",
        body: Framing.form, reason: Framing.twice),
      Framing(
        description: "a length and chunked",
        headers: "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n", body: Framing.chunked,
        reason: Framing.both),
      Framing(
        description: "chunked and a length",
        headers: "Transfer-Encoding: chunked\r\nContent-Length: 35\r\n", body: Framing.chunked,
        reason: Framing.both),
      Framing(
        description: "chunked twice",
        headers: "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
        body: Framing.chunked, reason: Framing.coding),
      Framing(
        description: "another coding", headers: "Transfer-Encoding: gzip\r\n",
        body: Framing.form, reason: Framing.coding),
      Framing(
        description: "chunked named with a space before the colon, beside a length",
        headers: "Content-Length: 4\r\nTransfer-Encoding : chunked\r\n", body: Framing.chunked,
        reason: Framing.name),
      Framing(
        description: "a tab before the colon",
        headers: "Content-Length\t: 35\r\n", body: Framing.form, reason: Framing.name),
      Framing(
        description: "chunked on a folded line, beside a length",
        headers: "Content-Length: 4\r\nX-Note: a\r\n Transfer-Encoding: chunked\r\n",
        body: Framing.chunked, reason: Framing.folded),
      Framing(
        description: "a folded value, beside a length",
        headers: "Content-Length: 35\r\nX-Note: a\r\n\tb\r\n", body: Framing.form,
        reason: Framing.folded),
    ])
  func ambiguousFraming(_ framing: Framing) throws {
    let server = try TestEmulator()
    // No `Connection: close`: the server must close by itself. Then a second request,
    // which must not be answered.
    let request =
      "POST /tpns HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
      + framing.headers + "\r\n" + framing.body
      + "GET /tpns?cmd=device&uid=\(TestEmulator.uid(2)) HTTP/1.1\r\nHost: localhost\r\n\r\n"
    let started = Date()
    let reply = String(
      decoding: try RawHTTPClient.roundTrip(port: server.port, Array(request.utf8), timeout: 5),
      as: UTF8.self)
    #expect(Date().timeIntervalSince(started) < 3, "the connection was not closed")
    #expect(reply.hasPrefix("HTTP/1.1 400 "), "\(reply.prefix(60))")
    #expect(reply.hasSuffix("\r\n\r\nerror: \(framing.reason)\n"))
    #expect(reply.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer only")
    #expect(reply.lowercased().contains("\r\nconnection: close\r\n"))
    let registry = try #require(try server.inspect("registry").json as? [String: Any])
    #expect((registry["devices"] as? [Any])?.count == 0)
  }

  @Test(
    "a body framed one way, by its length or chunked, is read",
    arguments: [
      ("Content-Length: 35\r\n", Framing.form),
      ("Transfer-Encoding: chunked\r\n", Framing.chunked),
      ("transfer-encoding: Chunked\r\n", Framing.chunked),
    ])
  func clearFraming(headers: String, body: String) throws {
    let server = try TestEmulator()
    let request =
      "POST /tpns HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
      + "Content-Type: application/x-www-form-urlencoded\r\n" + headers + "\r\n" + body
    let reply = try RawHTTPClient.exchange(port: server.port, Array(request.utf8))
    #expect(reply.status == 200)
    #expect(reply.body == "200 ok: device \(TestEmulator.uid(1)) announced\n")
  }
}
