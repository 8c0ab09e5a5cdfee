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
    let sockets = try (0..<200).map { _ in try Self.connect(port: server.port) }
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

  static func connect(port: UInt16) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard descriptor >= 0, connected == 0 else {
      throw RawHTTPClient.Failure(description: "connect: \(errno)")
    }
    return descriptor
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
