import Foundation
import Locking

/// A plain HTTP/1.1 server on 127.0.0.1 that answers every request with the
/// same status and body, and keeps each request as it arrived (request
/// line, headers, body): a TPNS that says something hostile, or, given as
/// `http_proxy`, the proxy that sees what a client sends through it.
final class ScriptedServer: @unchecked Sendable {
  // @unchecked: `descriptor` is set once; the requests are behind their lock.
  let port: Int
  private let descriptor: Int32
  private let received = LockedState<[String]>([])

  /// A server answering `status` with `body` to every request.
  init(status: Int = 200, body: String = "ok\n") throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 16) == 0 else {
      close(listener)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(listener, $0, &length)
      }
    }
    descriptor = listener
    port = Int(UInt16(bigEndian: address.sin_port))
    // The thread holds what it needs, not the server, so that deinit runs.
    let requests = received
    let answer = Array(Self.head(status, body).utf8) + Array(body.utf8)
    Thread { Self.serve(listener, received: requests, answer: answer) }.start()
  }

  deinit {
    // Wakes the accept loop, which then ends.
    shutdown(descriptor, Int32(SHUT_RDWR))
    close(descriptor)
  }

  /// `http://127.0.0.1:PORT`.
  var base: String { "http://127.0.0.1:\(port)" }

  /// The requests so far, each as received.
  var requests: [String] { received.value }

  /// The status line and headers of the answer with `body`.
  private static func head(_ status: Int, _ body: String) -> String {
    "HTTP/1.1 \(status) Scripted\r\nContent-Type: text/plain\r\n"
      + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
  }

  /// Accepts connections on `descriptor` until it is shut down: reads each
  /// request, keeps it, sends `answer`, closes.
  private static func serve(
    _ descriptor: Int32, received: LockedState<[String]>, answer: [UInt8]
  ) {
    while true {
      let connection = accept(descriptor, nil, nil)
      guard connection >= 0 else { return }
      let request = readRequest(connection)
      received.withLock { $0.append(request) }
      _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      close(connection)
    }
  }

  /// The request on `connection`: its head, then as many body bytes as
  /// `Content-Length` says.
  private static func readRequest(_ connection: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 8192)
    var expected: Int?
    while expected.map({ bytes.count < $0 }) ?? true {
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      bytes += buffer[..<count]
      let text = String(decoding: bytes, as: UTF8.self)
      if expected == nil, let end = text.range(of: "\r\n\r\n") {
        let head = text[..<end.lowerBound].lowercased()
        let length =
          head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap {
            Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
          }
          ?? 0
        expected = text[..<end.upperBound].utf8.count + length
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
