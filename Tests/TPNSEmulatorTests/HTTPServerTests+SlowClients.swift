import Foundation
import Testing

@testable import TPNSEmulator

#if canImport(Glibc)
  import Glibc
#endif

/// Clients that send their requests slowly (slowloris): libmicrohttpd's timeout counts
/// idleness, so a header line every few seconds kept a connection for ever, and a
/// thousand such connections kept every other client out.
extension HTTPServerTests {
  /// The start of a request, never finished.
  static let partialHead = Array("GET /tpns?cmd=device HTTP/1.1\r\nHost: localhost\r\n".utf8)

  @Test("a thousand clients trickling their heads do not keep a new client out")
  func slowlorisCrowd() throws {
    try #require(Self.raiseFileLimit(to: 4096), "needs 4,096 open files")
    let server = try TestEmulator()
    let crowd = try (0..<1000).map { _ in
      let descriptor = try RawHTTPClient.connect(port: server.port)
      Self.write(descriptor, Self.partialHead)
      return descriptor
    }
    defer {
      for descriptor in crowd { close(descriptor) }
    }
    let started = Date()
    let reply = try RawHTTPClient.roundTrip(
      port: server.port,
      Array("GET /_emulator/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8),
      timeout: 5)
    let waited = Date().timeIntervalSince(started)
    let text = String(decoding: reply, as: UTF8.self)
    #expect(text.hasPrefix("HTTP/1.1 200 "), "no answer after \(waited) s: \(text.prefix(40))")
    #expect(waited < 3)
    // The longest-waiting ones were closed to make room: at most half the connection
    // limit may be sending a request.
    let open = Self.openAfterClosing(crowd, within: 2) {
      $0.count <= HTTPServer.maximumIncompleteRequests
    }
    #expect(open.count <= HTTPServer.maximumIncompleteRequests)
    #expect(open.count >= HTTPServer.maximumIncompleteRequests - 2)
  }

  @Test("a head not sent whole within the deadline closes the connection, however it trickles")
  func headDeadline() throws {
    let server = HTTPServer(handler: { _ in .text(200, "ok\n") }, headTimeout: 1)
    let port = try server.start(host: "127.0.0.1", port: 0, threads: 1)
    defer { server.stop() }
    let descriptor = try RawHTTPClient.connect(port: port)
    defer { close(descriptor) }
    let started = Date()
    Self.write(descriptor, Self.partialHead)
    // A header line every 100 ms: never idle, never done.
    var line = 0
    while !HTTPServerTests.isClosedByPeer(descriptor) && Date().timeIntervalSince(started) < 5 {
      _ = Glibc.poll(nil, 0, 100)
      line += 1
      Self.write(descriptor, Array("X-Line-\(line): x\r\n".utf8))
    }
    let closedAfter = Date().timeIntervalSince(started)
    #expect(HTTPServerTests.isClosedByPeer(descriptor))
    #expect(closedAfter >= 0.9)
    #expect(closedAfter < 2.5)
    #expect(server.deadlines.counts.open == 0)
  }

  @Test("a keep-alive connection gets the same deadline for its next head")
  func keepAliveDeadline() throws {
    let server = HTTPServer(handler: { _ in .text(200, "ok\n") }, headTimeout: 1)
    let port = try server.start(host: "127.0.0.1", port: 0, threads: 1)
    defer { server.stop() }
    let descriptor = try RawHTTPClient.connect(port: port)
    defer { close(descriptor) }
    Self.write(descriptor, Array("GET /a HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let answered = Date()
    var closed = false
    while !closed && Date().timeIntervalSince(answered) < 5 {
      var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard Glibc.poll(&waiting, 1, 100) > 0 else { continue }
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 { received += buffer[..<count] } else { closed = true }
    }
    let text = String(decoding: received, as: UTF8.self)
    #expect(text.hasPrefix("HTTP/1.1 200 "))
    #expect(text.hasSuffix("\r\n\r\nok\n"))
    #expect(closed)
    #expect(Date().timeIntervalSince(answered) >= 0.9)
  }

  @Test("past the most connections sending a request, a new one closes the longest waiting")
  func longestWaitingMakesRoom() throws {
    let server = HTTPServer(
      handler: { _ in .text(200, "ok\n") }, headTimeout: 60, maximumIncompleteRequests: 3)
    let port = try server.start(host: "127.0.0.1", port: 0, threads: 1)
    defer { server.stop() }
    var connections: [Int32] = []
    defer {
      for descriptor in connections { close(descriptor) }
    }
    for count in 1...3 {
      let descriptor = try RawHTTPClient.connect(port: port)
      Self.write(descriptor, Self.partialHead)
      connections.append(descriptor)
      #expect(Self.eventually(within: 2) { server.deadlines.counts.open == count })
    }
    let fourth = try RawHTTPClient.connect(port: port)
    connections.append(fourth)
    #expect(Self.eventually(within: 2) { HTTPServerTests.isClosedByPeer(connections[0]) })
    #expect(connections[1...].filter { HTTPServerTests.isClosedByPeer($0) } == [])
    #expect(server.deadlines.counts == (open: 3, incomplete: 3))
    // A whole request is answered at once, its connection kept.
    Self.write(fourth, Array("GET /b HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
    #expect(Self.eventually(within: 2) { server.deadlines.counts == (open: 3, incomplete: 3) })
    #expect(!HTTPServerTests.isClosedByPeer(fourth))
  }

  /// Writes `bytes` (the server may have closed: no SIGPIPE).
  static func write(_ descriptor: Int32, _ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes {
      Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
  }

  /// Whether `condition` holds within `seconds`, checked every 10 ms.
  static func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
      guard Date() < deadline else { return false }
      _ = Glibc.poll(nil, 0, 10)
    }
    return true
  }

  /// The descriptors the server has not closed, once `done` holds for them or after
  /// `seconds`.
  static func openAfterClosing(
    _ descriptors: [Int32], within seconds: Double, until done: (Set<Int32>) -> Bool
  ) -> Set<Int32> {
    var open = Set(descriptors)
    _ = eventually(within: seconds) {
      open = open.filter { !HTTPServerTests.isClosedByPeer($0) }
      return done(open)
    }
    return open
  }

  /// Raises this process's open-file limit to `count` if it is lower (up to the hard
  /// limit); whether it is now at least `count`.
  static func raiseFileLimit(to count: Int) -> Bool {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
      return false
    }
    if limit.rlim_cur < rlim_t(count) {
      limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
      guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
        return false
      }
    }
    return limit.rlim_cur >= rlim_t(count)
  }
}
