import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A reply as read off the socket.
struct HTTPReply {
  var status: Int
  /// Header names lower-cased.
  var headers: [String: String]
  var body: String

  /// The body parsed as JSON.
  var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
}

/// A minimal HTTP/1.1 client over a plain socket, independent of the code under test
/// and of URL parsing: it sends exactly the bytes it is given (bad escapes, odd
/// methods, non-UTF-8), with `Connection: close`, and reads to the end (a chunked body
/// is decoded).
enum RawHTTPClient {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Sends a request to 127.0.0.1:`port`.
  static func send(
    port: UInt16, method: String = "GET", target: String, body: [UInt8] = [],
    contentType: String? = "application/x-www-form-urlencoded", extraHeaders: [String] = []
  ) throws -> HTTPReply {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    if !body.isEmpty || method == "POST" {
      if let contentType { head += "Content-Type: \(contentType)\r\n" }
      head += "Content-Length: \(body.count)\r\n"
    }
    for header in extraHeaders { head += header + "\r\n" }
    head += "\r\n"
    return try exchange(port: port, Array(head.utf8) + body)
  }

  /// Sends `bytes` as they are and parses the reply. `oneReply`: stop reading
  /// once a whole reply with a `Content-Length` has come, for a request that
  /// keeps the connection open (`Connection: Keep-Alive`, as firmware sends).
  static func exchange(port: UInt16, _ bytes: [UInt8], oneReply: Bool = false) throws -> HTTPReply {
    let received = try roundTrip(port: port, bytes, oneReply: oneReply)
    guard let split = received.firstRange(of: Array("\r\n\r\n".utf8)) else {
      throw Failure(description: "no header end in \(received.count) bytes")
    }
    let head = String(decoding: received[..<split.lowerBound], as: UTF8.self)
    var body = String(decoding: received[split.upperBound...], as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst().split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw Failure(description: "bad status line in \(head)")
    }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    if headers["transfer-encoding"]?.lowercased() == "chunked" {
      body = String(decoding: try dechunked(received[split.upperBound...]), as: UTF8.self)
    }
    return HTTPReply(status: status, headers: headers, body: body)
  }

  /// A chunked body's data: each `SIZE\r\nDATA\r\n` up to the `0\r\n\r\n` chunk.
  static func dechunked(_ bytes: ArraySlice<UInt8>) throws -> [UInt8] {
    var data: [UInt8] = []
    var rest = bytes
    while true {
      guard let lineEnd = rest.firstRange(of: Array("\r\n".utf8)),
        let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16),
        rest.count >= lineEnd.upperBound - rest.startIndex + size + 2
      else {
        throw Failure(description: "a bad chunk after \(data.count) bytes of body")
      }
      if size == 0 { return data }
      data += rest[lineEnd.upperBound..<(lineEnd.upperBound + size)]
      rest = rest[(lineEnd.upperBound + size + 2)...]
    }
  }

  /// A TCP socket connected to 127.0.0.1:`port`; the caller closes it.
  static func connect(port: UInt16) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let code = errno
      close(descriptor)
      throw Failure(description: "connect: \(code)")
    }
    return descriptor
  }

  /// Connects, writes everything, reads until the server closes (or `timeout`
  /// seconds pass without a byte, or with `oneReply` a whole reply has come).
  static func roundTrip(
    port: UInt16, _ bytes: [UInt8], timeout: Int = 10, oneReply: Bool = false
  ) throws -> [UInt8] {
    let descriptor = try connect(port: port)
    defer { close(descriptor) }
    var limit = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard written > 0 else { break }  // The server may answer (413) and close early.
      offset += written
    }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      received += buffer[..<count]
      if oneReply, isWholeReply(received) { break }
    }
    return received
  }

  /// Whether `bytes` hold a reply's head and as much body as its `Content-Length` says.
  private static func isWholeReply(_ bytes: [UInt8]) -> Bool {
    guard let split = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return false }
    let head = String(decoding: bytes[..<split.lowerBound], as: UTF8.self).lowercased()
    guard
      let line = head.components(separatedBy: "\r\n").first(where: {
        $0.hasPrefix("content-length:")
      }),
      let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
    else { return false }
    return bytes.count - split.upperBound >= length
  }
}
