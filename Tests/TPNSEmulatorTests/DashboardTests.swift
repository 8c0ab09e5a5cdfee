import Foundation
import Testing

@testable import TPNSEmulator

/// The dashboard at `/` and its live stream, `/_emulator/stream`, over real HTTP.
@Suite("Dashboard: the page, the overview and the live stream")
struct DashboardTests {
  /// An open `GET /_emulator/stream`, read as the bytes arrive.
  final class StreamReader {
    let descriptor: Int32
    var received = ""

    init(port: UInt16, headers: [String] = []) throws {
      descriptor = try RawHTTPClient.connect(port: port)
      var head = "GET /_emulator/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      for header in headers { head += header + "\r\n" }
      let bytes = Array((head + "\r\n").utf8)
      _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    deinit { close(descriptor) }

    /// Whether the server closed the connection within `seconds` (reading what came
    /// before).
    func waitForEnd(seconds: Double = 5) -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while deadline.timeIntervalSinceNow > 0 {
        var descriptors = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptors, 1, Int32(deadline.timeIntervalSinceNow * 1000) + 1) > 0 else {
          continue
        }
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { return true }
        received += String(decoding: buffer[..<count], as: UTF8.self)
      }
      return false
    }

    /// Reads until `text` has arrived (true) or `seconds` have passed (false).
    func waitFor(_ text: String, seconds: Double = 5) -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while !received.contains(text) {
        let left = deadline.timeIntervalSinceNow
        guard left > 0 else { return false }
        var descriptors = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptors, 1, Int32(left * 1000) + 1) > 0 else { continue }
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return received.contains(text) }
        received += String(decoding: buffer[..<count], as: UTF8.self)
      }
      return true
    }
  }

  @Test(
    "the page, its style sheet and its script are served with a policy that forbids inline code",
    arguments: [
      ("/", "text/html"), ("/dashboard.css", "text/css"), ("/dashboard.js", "text/javascript"),
    ])
  func servesThePage(path: String, type: String) throws {
    let server = try TestEmulator()
    let reply = try RawHTTPClient.send(port: server.port, target: path)
    #expect(reply.status == 200)
    #expect(reply.headers["content-type"]?.hasPrefix(type) == true)
    let policy = reply.headers["content-security-policy"] ?? ""
    #expect(policy.contains("script-src 'self'"))
    #expect(policy.contains("frame-ancestors 'none'"))
    #expect(!reply.body.isEmpty)
  }

  @Test("the page writes registry data as text only: no innerHTML in its script")
  func scriptNeverParsesData() throws {
    let script = String(
      decoding: try #require(DashboardPage.assets["/dashboard.js"]).body, as: UTF8.self)
    let page = String(decoding: try #require(DashboardPage.assets["/"]).body, as: UTF8.self)
    #expect(script.contains("textContent"))
    #expect(!script.contains("innerHTML"))
    #expect(!script.contains("insertAdjacentHTML"))
    #expect(!page.contains("<script>"))  // only the external, same-origin one
  }

  @Test("a POST to the page is 405, and the page under a foreign Host is 421")
  func pageRefusals() throws {
    let server = try TestEmulator()
    #expect(try RawHTTPClient.send(port: server.port, method: "POST", target: "/").status == 405)
    let rebound = try AccessPolicyTests.send(server, "GET", "/", headers: ["Host: evil.example"])
    #expect(rebound.status == 421)
  }

  @Test(
    "the stream is refused to a foreign Host, Origin or site",
    arguments: [
      ["Host: evil.example"], ["Host: 127.0.0.1", "Origin: http://evil.example"],
      ["Host: 127.0.0.1", "Sec-Fetch-Site: cross-site"],
      ["Host: 127.0.0.1", "Sec-Fetch-Site: same-site"],
    ])
  func streamRefusals(headers: [String]) throws {
    let server = try TestEmulator()
    let reply = try AccessPolicyTests.send(server, "GET", "/_emulator/stream", headers: headers)
    #expect([403, 421].contains(reply.status))
    #expect(!reply.body.contains("event:"))
  }

  @Test("the stream sends retry:, a hello, then each request and registry change as it happens")
  func streamsEvents() throws {
    let server = try TestEmulator()
    let stream = try StreamReader(port: server.port)
    #expect(stream.waitFor("event: hello"))
    #expect(stream.received.contains("text/event-stream"))
    #expect(stream.received.contains("retry: \(EventHub.retryMilliseconds)"))
    let token = try server.registerIOS()
    #expect(stream.waitFor("event: registry\ndata: {\"cmd\":\"client\"}"))
    #expect(stream.received.contains("event: request\n"))
    #expect(stream.received.contains(token))
    #expect(stream.received.contains("\"duration_ms\""))
    #expect(try server.inspect("faults?status=503&count=1", method: "POST").status == 200)
    #expect(stream.waitFor("event: fault"))
    #expect(try server.inspect("reset", method: "POST").status == 200)
    #expect(stream.waitFor("event: reset"))
  }

  @Test("the overview counts phones, mappings, notifications and requests and shows the fault")
  func overview() throws {
    let server = try TestEmulator()
    _ = try server.registerIOS()
    #expect(try server.inspect("faults?status=503&count=3", method: "POST").status == 200)
    let overview = try #require(try server.inspect("overview").json as? [String: Any])
    #expect(overview["status"] as? String == "ok")
    #expect(overview["database"] as? String == ":memory:")
    let counts = try #require(overview["counts"] as? [String: Int])
    #expect(counts["phones"] == 1)
    #expect(counts["requests"] == 1)
    let fault = (overview["fault"] as? [String: Any])?["fault"] as? [String: Any]
    #expect(fault?["status"] as? Int == 503)
  }

  @Test("a full quota of streams neither holds the one serving thread nor stops a stop")
  func manyStreams() throws {
    let server = try TestEmulator()
    let count = EventHub.maximumStreamsPerPeer
    let streams = try (0..<count).map { _ in try StreamReader(port: server.port) }
    for stream in streams { #expect(stream.waitFor("event: hello")) }
    let started = Date()
    for number in 0..<50 {
      #expect(try server.registerIOS(token: TestEmulator.token(number + 10)).count == 64)
    }
    #expect(Date().timeIntervalSince(started) < 10)
    for stream in streams { #expect(stream.waitFor("\"cmd\":\"client\"")) }
    let overview = try #require(try server.inspect("overview").json as? [String: Any])
    #expect(overview["streams"] as? Int == count)
    let stopping = Date()
    server.emulator.stop()
    #expect(Date().timeIntervalSince(stopping) < 10)
  }
}
