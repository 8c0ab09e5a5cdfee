import Foundation
import Testing

@testable import TPNSEmulator

/// Two ways a web page reached `/tpns` although every request of its own is refused:
/// through `http://0.0.0.0:PORT` (Linux delivers it on loopback, and a browser sends
/// no `Sec-Fetch-Site` to it, taking it for another machine), and through what a
/// browser sends by itself (a link followed, a form, an `<img>`), which carries no
/// `Origin`.
extension AccessPolicyTests {
  @Test(
    "an unspecified address as Host is answered 421 unless it is the --host",
    arguments: [
      ("127.0.0.1", "0.0.0.0:7380", false), ("127.0.0.1", "0.0.0.0", false),
      ("127.0.0.1", "[::]:7380", false), ("127.0.0.1", "[0:0::0]", false),
      ("127.0.0.1", "[::ffff:0.0.0.0]:7380", false), ("::", "0.0.0.0:7380", false),
      ("0.0.0.0", "[::]:7380", false), ("0.0.0.0", "0.0.0.0:7380", true),
      ("::", "[::]:7380", true), ("127.0.0.1", "127.0.0.1:7380", true),
      ("127.0.0.1", "[::1]:7380", true), ("127.0.0.1", "0.0.0.1:7380", true),
    ])
  func unspecifiedHost(listening: String, host: String, isServed: Bool) {
    let request = IncomingRequest(
      method: "GET", path: "/tpns", query: nil, contentType: nil, body: [],
      isBodyTooLarge: false, host: host)
    let refusal = AccessPolicy(listeningHost: listening).refusal(of: request)
    #expect((refusal == nil) == isServed)
    if !isServed {
      #expect(refusal?.status == 421)
      #expect(refusal?.reason.contains("is an unspecified address") == true)
    }
  }

  @Test("a request through 0.0.0.0 registers nothing and reads nothing")
  func unspecifiedHostChangesNothing() throws {
    let (server, registry) = try Self.registered()
    let query = Self.client.replacingOccurrences(of: "appid=", with: "appid=x")
    for (method, target) in [("GET", "/tpns?\(query)"), ("GET", "/_emulator/registry")] {
      let reply = try Self.send(
        server, method, target, headers: ["Host: 0.0.0.0:\(server.port)"])
      #expect(reply.status == 421, "\(method) \(target)")
      #expect(!reply.body.contains(Self.token.suffix(6)))
    }
    #expect(try server.registryText() == registry)
  }

  @Test(
    "a browser's navigation or subresource request to /tpns is answered 403 and runs nothing",
    arguments: [
      "Sec-Fetch-Mode: navigate", "Sec-Fetch-Mode: no-cors", "Sec-Fetch-Mode: NAVIGATE",
      "Sec-Fetch-Site: none",
    ])
  func browserOwnRequest(header: String) throws {
    let (server, registry) = try Self.registered()
    let query = Self.client.replacingOccurrences(of: "appid=", with: "appid=x")
    for method in ["GET", "POST"] {
      let reply = try Self.send(
        server, method, "/tpns?\(query)", headers: ["Host: 127.0.0.1:\(server.port)", header])
      #expect(reply.status == 403, "\(method)")
      #expect(reply.body.hasPrefix("error: a browser's own request to /tpns is refused ("))
      #expect(reply.body.contains("--allow-browser"))
    }
    #expect(try server.registryText() == registry)
  }

  @Test("the dashboard's own fetch of /tpns (cors, same-origin) is served")
  func dashboardFetch() throws {
    let server = try TestEmulator()
    let reply = try Self.send(
      server, "POST", "/tpns?cmd=device&uid=\(TestEmulator.uid(1))",
      headers: [
        "Host: 127.0.0.1:\(server.port)", "Origin: http://127.0.0.1:\(server.port)",
        "Sec-Fetch-Mode: cors", "Sec-Fetch-Site: same-origin",
      ])
    #expect(reply.status == 200)
  }

  @Test("with --allow-browser, an address typed in the browser runs its command")
  func allowBrowser() throws {
    let server = try TestEmulator(allowBrowser: true)
    let reply = try Self.send(
      server, "GET", "/tpns?cmd=device&uid=\(TestEmulator.uid(1))",
      headers: [
        "Host: 127.0.0.1:\(server.port)", "Sec-Fetch-Mode: navigate", "Sec-Fetch-Site: none",
      ])
    #expect(reply.status == 200)
    let crossSite = try Self.send(
      server, "GET", "/tpns?cmd=device&uid=\(TestEmulator.uid(2))",
      headers: [
        "Host: 127.0.0.1:\(server.port)", "Sec-Fetch-Mode: no-cors", "Sec-Fetch-Site: cross-site",
      ])
    #expect(crossSite.status == 403, "another site's page is still refused")
  }
}
