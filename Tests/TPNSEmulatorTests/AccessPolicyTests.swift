import Foundation
import Testing

@testable import TPNSEmulator

/// A web page the user visits must not reach the emulator: not by a cross-site form
/// or `fetch` (reset the registry, arm a fault, register its own token over the
/// user's udid), nor through DNS rebinding (a name of its own resolving to 127.0.0.1,
/// from which it could read every token in `/_emulator/registry`). Native clients
/// (`tpns`, curl, libcurl) send neither `Origin` nor `Sec-Fetch-Site`, and a `Host`
/// that names this machine.
@Suite("AccessPolicy: foreign Host, Origin and Sec-Fetch-Site are refused")
struct AccessPolicyTests {
  static let token = TestEmulator.token(7)
  static let client =
    "cmd=client&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&token=\(token)"

  /// Sends `method target` with exactly `headers` (a `Host` among them or not).
  static func send(
    _ server: TestEmulator, _ method: String, _ target: String, headers: [String],
    version: String = "HTTP/1.1"
  ) throws -> HTTPReply {
    var head = "\(method) \(target) \(version)\r\nConnection: close\r\n"
    if method == "POST" { head += "Content-Length: 0\r\n" }
    for header in headers { head += header + "\r\n" }
    return try RawHTTPClient.exchange(port: server.port, Array((head + "\r\n").utf8))
  }

  /// An emulator with one phone registered, whose registry the refused requests must
  /// leave as it is.
  static func registered() throws -> (TestEmulator, registry: String) {
    let server = try TestEmulator()
    try server.registerIOS()
    return (server, try server.registryText())
  }

  @Test(
    "a Host that is not this machine's is answered 421, reads nothing and changes nothing",
    arguments: [
      "evil.example:PORT", "evil.example", "localhost.evil.example:PORT",
      "127.0.0.1.nip.io:PORT", "127.0.0.1:PORT.evil.example", "[::1].evil.example:PORT", "",
      "localhost:PORT@evil.example",
    ])
  func foreignHost(host: String) throws {
    let (server, registry) = try Self.registered()
    let host = "Host: " + host.replacingOccurrences(of: "PORT", with: String(server.port))
    for (method, target) in [
      ("GET", "/_emulator/registry"), ("GET", "/_emulator/requests"),
      ("POST", "/_emulator/reset"), ("POST", "/_emulator/faults?status=503"),
      ("POST", "/tpns?\(Self.client.replacingOccurrences(of: "appid=", with: "appid=x"))"),
    ] {
      let reply = try Self.send(server, method, target, headers: [host])
      #expect(reply.status == 421, "\(method) \(target)")
      #expect(!reply.body.contains(Self.token.suffix(6)))
      #expect(reply.body.hasPrefix("error: the Host header "))
    }
    #expect(try server.registryText() == registry)
    #expect(try server.inspect("faults").body.contains("\"fault\" : null"))
  }

  @Test(
    "a Host naming this machine is served, with any port or none",
    arguments: [
      "127.0.0.1:PORT", "localhost:PORT", "LocalHost:PORT", "[::1]:PORT", "127.0.0.1",
      "localhost", "127.0.0.1:8080", "10.1.2.3:PORT", "[fe80::1]:PORT", "[::ffff:127.0.0.1]",
    ])
  func ownHost(host: String) throws {
    let server = try TestEmulator()
    let reply = try Self.send(
      server, "GET", "/_emulator/health",
      headers: ["Host: " + host.replacingOccurrences(of: "PORT", with: String(server.port))])
    #expect(reply.status == 200)
  }

  @Test(
    "a name is served as a Host only when it is the one given to --host",
    arguments: [
      ("devbox.lan", "devbox.lan:7380", true), ("devbox.lan", "DEVBOX.LAN", true),
      ("devbox.lan", "other.lan:7380", false), ("127.0.0.1", "devbox.lan:7380", false),
      ("0.0.0.0", "devbox.lan:7380", false), ("::", "[::1]:7380", true),
    ])
  func listeningName(listening: String, host: String, isServed: Bool) {
    let request = IncomingRequest(
      method: "GET", path: "/tpns", query: nil, contentType: nil, body: [],
      isBodyTooLarge: false, host: host)
    #expect((AccessPolicy(listeningHost: listening).refusal(of: request) == nil) == isServed)
  }

  @Test("a request without Host (HTTP/1.0, never a browser's) is served")
  func noHost() throws {
    let server = try TestEmulator()
    let reply = try Self.send(
      server, "GET", "/_emulator/health", headers: [], version: "HTTP/1.0")
    #expect(reply.status == 200)
  }

  @Test(
    "a request with a foreign Origin is answered 403 and changes nothing",
    arguments: [
      "http://evil.example", "null", "http://localhost:8080", "https://127.0.0.1:PORT",
      "http://127.0.0.1:PORT.evil.example", "http://localhost:PORT",
    ])
  func foreignOrigin(origin: String) throws {
    let (server, registry) = try Self.registered()
    let origin = origin.replacingOccurrences(of: "PORT", with: String(server.port))
    for (method, target) in [
      ("POST", "/_emulator/reset"), ("POST", "/_emulator/faults?status=503"),
      ("POST", "/tpns?\(Self.client.replacingOccurrences(of: "appid=", with: "appid=x"))"),
      ("GET", "/_emulator/registry"),
    ] {
      let reply = try Self.send(
        server, method, target, headers: ["Host: 127.0.0.1:\(server.port)", "Origin: \(origin)"])
      #expect(reply.status == 403, "\(method) \(target)")
      #expect(reply.body.hasPrefix("error: requests from web pages are refused"))
      #expect(!reply.body.contains(Self.token.suffix(6)))
    }
    #expect(try server.registryText() == registry)
    #expect(try server.inspect("faults").body.contains("\"fault\" : null"))
  }

  @Test("an Origin that is the request's own (the emulator's own page) is served")
  func ownOrigin() throws {
    let server = try TestEmulator()
    let reply = try Self.send(
      server, "POST", "/_emulator/reset",
      headers: ["Host: 127.0.0.1:\(server.port)", "Origin: http://127.0.0.1:\(server.port)"])
    #expect(reply.status == 200)
  }

  @Test(
    "Sec-Fetch-Site cross-site or same-site (another port of localhost) is answered 403",
    arguments: ["cross-site", "same-site", "CROSS-SITE", "bogus"])
  func foreignFetchSite(site: String) throws {
    let (server, registry) = try Self.registered()
    // An <img src> GET: no Origin, a valid Host; only Sec-Fetch-Site tells.
    let query = Self.client.replacingOccurrences(of: "appid=", with: "appid=x")
    let reply = try Self.send(
      server, "GET", "/tpns?\(query)",
      headers: ["Host: 127.0.0.1:\(server.port)", "Sec-Fetch-Site: \(site)"])
    #expect(reply.status == 403)
    #expect(reply.body.hasPrefix("error: requests from web pages are refused"))
    #expect(try server.registryText() == registry)
  }

  @Test(
    "Sec-Fetch-Site none (typed in the address bar) or same-origin is served",
    arguments: ["none", "same-origin"])
  func ownFetchSite(site: String) throws {
    let server = try TestEmulator()
    let reply = try Self.send(
      server, "GET", "/_emulator/health",
      headers: ["Host: 127.0.0.1:\(server.port)", "Sec-Fetch-Site: \(site)"])
    #expect(reply.status == 200)
  }
}
