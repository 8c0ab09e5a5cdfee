import Foundation
import Testing

@testable import TPNSEmulator

#if canImport(Glibc)
  import Glibc
#endif

@Suite("HTTPServer: connections")
struct HTTPServerTests {
  /// A client that sends part of a body and closes its side (an aborted upload, a
  /// slowloris giving up) must see the server close too, at once. With
  /// libmicrohttpd 0.9.75 in epoll mode, a FIN that arrived with the data was never
  /// noticed: the socket sat in CLOSE_WAIT, holding a connection slot, until the
  /// 30 s idle timeout.
  @Test("a client that closes mid-body is closed at once, however many do it together")
  func halfClosedUploads() throws {
    let server = try TestEmulator()
    let request = Array(
      ("POST /tpns HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n"
        + "cmd=clien").utf8)
    // Many at once, so that the server finds data and FIN already queued together.
    let sockets = try (0..<200).map { _ in try RawHTTPClient.connect(port: server.port) }
    defer {
      for descriptor in sockets { close(descriptor) }
    }
    for descriptor in sockets {
      _ = request.withUnsafeBytes {
        send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      shutdown(descriptor, Int32(SHUT_WR))
    }
    // Well under the 30 s idle timeout: the server must close every one by itself.
    let deadline = Date().addingTimeInterval(5)
    var open = Set(sockets)
    while !open.isEmpty && Date() < deadline {
      for descriptor in open where Self.isClosedByPeer(descriptor) {
        open.remove(descriptor)
      }
      if !open.isEmpty { _ = poll(nil, 0, 10) }
    }
    #expect(open.count == 0, "\(open.count) of 200 connections still open after 5 s")
  }

  /// A client that asks first (`Expect: 100-continue`) before a body over the limit is
  /// told 413 at once rather than invited to upload megabytes that would be dropped.
  @Test("a declared body over 1 MiB is answered 413 before it is sent")
  func earlyTooLarge() throws {
    let server = try TestEmulator()
    let head =
      "POST /tpns HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
      + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000000\r\n"
      + "Expect: 100-continue\r\n\r\n"
    let reply = try RawHTTPClient.roundTrip(port: server.port, Array(head.utf8), timeout: 5)
    let text = String(decoding: reply, as: UTF8.self)
    #expect(text.hasPrefix("HTTP/1.1 413 "), "\(text.prefix(40))")
    #expect(text.hasSuffix("error: the body is larger than 1048576 bytes\n"))
    // Logged like any refused /tpns request.
    let log = try server.inspect("requests").json as? [String: Any]
    let entries = log?["requests"] as? [[String: Any]]
    #expect(entries?.last?["status"] as? Int == 413)
  }

  /// Whether the server closed: a read without waiting sees the end (or a reset).
  static func isClosedByPeer(_ descriptor: Int32) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
      }
      if count > 0 { continue }  // an answer (none is expected): read past it
      return count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
    }
  }
}
