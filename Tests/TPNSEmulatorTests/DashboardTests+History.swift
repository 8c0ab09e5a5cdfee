import Foundation
import Testing

@testable import TPNSEmulator

extension DashboardTests {
  @Test("the request log keeps each request's duration, as the stream sends it")
  func durationInHistory() throws {
    let server = try TestEmulator()
    try server.registerIOS()
    let entry = try #require(try server.requests().last)
    let duration = try #require(entry["duration_ms"] as? Double)
    #expect(duration >= 0)
  }

  @Test("the request monitor shows errors and warnings in columns of their own")
  func errorAndWarningColumns() throws {
    let server = try TestEmulator()
    let page = try RawHTTPClient.send(port: server.port, target: "/")
    #expect(
      page.body.contains(
        "<th scope=\"col\">duration</th><th scope=\"col\">error</th><th scope=\"col\">warnings</th>"
      ))
    let script = try RawHTTPClient.send(port: server.port, target: "/dashboard.js")
    #expect(!script.body.contains("\"error: \" + r.error"))
  }

  @Test(
    "every answer says nosniff: the page, JSON, errors, the stream, /tpns",
    arguments: [
      "/", "/dashboard.js", "/_emulator/health", "/_emulator/nowhere", "/tpns?cmd=device",
      "/tpns?cmd=device&uid=\(TestEmulator.uid(1))", "/missing",
    ])
  func noSniff(target: String) throws {
    let server = try TestEmulator()
    // Twice: the second answer on a connection may be a kept one.
    for _ in 0..<2 {
      let reply = try RawHTTPClient.send(port: server.port, target: target)
      #expect(reply.headers["x-content-type-options"] == "nosniff", "\(target) \(reply.status)")
    }
    let stream = try StreamReader(port: server.port)
    #expect(stream.waitFor("event: hello"))
    #expect(stream.received.lowercased().contains("x-content-type-options: nosniff\r\n"))
  }
}
