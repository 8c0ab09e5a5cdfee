import Foundation
import TPNSProtocol
import Testing

@testable import TPNSEmulator

/// The vendor's console activates UIDs; the service maps only those. The
/// emulator's whitelist is off by default (every UID activated), set with
/// `--whitelist FILE` or `/_emulator/whitelist`, and a UID not on it is
/// answered 200 with a body starting `422` that names it.
@Suite struct WhitelistTests {
  static let a = TestEmulator.uid(1)
  static let b = TestEmulator.uid(2)
  static let c = TestEmulator.uid(3)

  /// Turns the whitelist on with `text` (`PUT /_emulator/whitelist`).
  static func put(_ server: TestEmulator, _ text: String) throws -> HTTPReply {
    try RawHTTPClient.send(
      port: server.port, method: "PUT", target: "/_emulator/whitelist", body: Array(text.utf8),
      contentType: "text/plain")
  }

  /// The whitelist as `GET /_emulator/whitelist` answers it.
  static func shown(_ server: TestEmulator) throws -> (enabled: Bool?, uids: [String]?) {
    let json = try server.inspect("whitelist").json as? [String: Any]
    return (json?["enabled"] as? Bool, json?["uids"] as? [String])
  }

  @Test(
    "the whitelist's text: one UID a line, # comments and blank lines skipped, lower case taken")
  func parsesText() throws {
    let text = "# cameras\n\(Self.a)  # hall\n\n  \(Self.b.lowercased())\r\n#\(Self.c)\n"
    #expect(try Whitelist.parse(text).map(\.rawValue) == [Self.a, Self.b])
    #expect(try Whitelist.parse("").isEmpty)
  }

  @Test(
    "a whitelist line that is not a UID is an error naming the line",
    arguments: [("ABC\n", 1), ("# ok\n\(a)\nnot a uid\n", 3), ("\(a)X", 1), ("\(a) \(b)", 1)])
  func refusesBadLine(text: String, line: Int) {
    #expect(throws: WhitelistError.self) { try Whitelist.parse(text) }
    do {
      _ = try Whitelist.parse(text)
    } catch {
      guard case .notAUID(let found, _) = error else { return #expect(Bool(false)) }
      #expect(found == line)
    }
  }

  @Test("off by default: GET says so and every UID is mapped")
  func offByDefault() throws {
    let server = try TestEmulator()
    #expect(try Self.shown(server).enabled == false)
    let token = try server.registerIOS()
    let reply = try server.post(
      "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map="
        + TestEmulator.map([Self.a, Self.b]))
    #expect(reply.body == "200 ok: 2 UIDs mapped\n")
  }

  @Test("PUT turns it on (GET shows it sorted, reset keeps it), DELETE turns it off")
  func putAndDelete() throws {
    let server = try TestEmulator()
    let put = try Self.put(server, "\(Self.c)\n# note\n\(Self.a)\n")
    #expect(put.status == 200)
    #expect(try Self.shown(server).enabled == true)
    #expect(try Self.shown(server).uids == [Self.a, Self.c])
    #expect(try server.inspect("reset", method: "POST").status == 200)
    #expect(try Self.shown(server).uids == [Self.a, Self.c])
    #expect(try server.inspect("whitelist", method: "DELETE").status == 200)
    #expect(try Self.shown(server).enabled == false)
    #expect(try Self.shown(server).uids == [])
  }

  @Test(
    "a PUT with a line that is not a UID is 400 naming the line, and changes nothing",
    arguments: ["\(a)\nBAD\n", "\(a)\n\(b)\(c)\n"])
  func putRefused(text: String) throws {
    let server = try TestEmulator()
    #expect(try Self.put(server, Self.a).status == 200)
    let reply = try Self.put(server, text)
    #expect(reply.status == 400)
    #expect(reply.body.contains("line 2"))
    #expect(try Self.shown(server).uids == [Self.a])
  }

  @Test(
    "mapping and rm_mapping of a UID not activated answer 200 with 422 naming it, changing nothing",
    arguments: ["mapping", "rm_mapping"])
  func singleUIDRefused(command: String) throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(token)"
    #expect(try server.get("cmd=mapping&\(phone)&uid=\(Self.b)").status == 200)
    #expect(try Self.put(server, Self.a).status == 200)
    let refused = try server.post("cmd=\(command)&\(phone)&uid=\(Self.b)")
    #expect(refused.status == 200)
    #expect(refused.body == "422 not activated: \(Self.b)\n")
    #expect(NotActivatedAnswer.isRefusal(refused.body))
    #expect(try server.uids(of: token) == [Self.b])
    let taken = try server.post("cmd=\(command)&\(phone)&uid=\(Self.a)")
    #expect(taken.body.hasPrefix("200 ok: \(Self.a)"))
  }

  @Test("mapsync maps the activated UIDs and answers 200 with 422 naming the others")
  func mapsyncPartlyRefused() throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    #expect(try Self.put(server, "\(Self.b)\n").status == 200)
    let reply = try server.post(
      "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map="
        + TestEmulator.map([Self.a, Self.b, Self.c]))
    #expect(reply.status == 200)
    #expect(reply.body == "422 not activated: \(Self.a), \(Self.c) (1 UID mapped)\n")
    #expect(try server.uids(of: token) == [Self.b])
  }

  @Test(
    "the whitelist endpoint refuses a foreign Host (421), a foreign Origin or a cross-site request (403), changing nothing",
    arguments: ["GET", "PUT", "DELETE"])
  func guarded(method: String) throws {
    let server = try TestEmulator()
    #expect(try Self.put(server, Self.a).status == 200)
    let own = "Host: 127.0.0.1:\(server.port)"
    for (headers, status) in [
      (["Host: evil.example:\(server.port)"], 421),
      ([own, "Origin: http://evil.example"], 403),
      ([own, "Origin: null"], 403),
      ([own, "Sec-Fetch-Site: cross-site"], 403),
      ([own, "Sec-Fetch-Site: same-site"], 403),
    ] {
      let body = method == "PUT" ? Array("\(Self.b)\n".utf8) : []
      var head = "\(method) /_emulator/whitelist HTTP/1.1\r\nConnection: close\r\n"
      head += "Content-Length: \(body.count)\r\n"
      for header in headers { head += header + "\r\n" }
      let guarded = try RawHTTPClient.exchange(
        port: server.port, Array((head + "\r\n").utf8) + body)
      #expect(guarded.status == status, "\(method) \(headers)")
      #expect(!guarded.body.contains(Self.a))
    }
    #expect(try Self.shown(server).uids == [Self.a])
    // The dashboard's own request (its Origin, same-origin) is served.
    let reply = try RawHTTPClient.send(
      port: server.port, method: method, target: "/_emulator/whitelist",
      body: method == "PUT" ? Array(Self.b.utf8) : [], contentType: "text/plain",
      extraHeaders: ["Origin: http://127.0.0.1:\(server.port)", "Sec-Fetch-Site: same-origin"])
    #expect(reply.status == 200)
  }
}
