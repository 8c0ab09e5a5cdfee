import Foundation
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// One server, several spellings of its URL: the store keys what a server
/// acknowledged by ``ServerURL/storeKey``, so that no spelling concludes
/// "acknowledged" from another's record, and a store with an entry per
/// spelling is read as one entry per server.
@Suite struct ServerSpellingTests {
  static let token = try! PushToken(String(repeating: "ab", count: 32), os: .ios)
  static let other = try! PushToken(String(repeating: "cd", count: 32), os: .ios)
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"

  @Test(
    "the store key: scheme and host in lower case, no default port, no trailing slash, every loopback host one",
    arguments: [
      ("http://127.0.0.1:7380/tpns", "http://127.0.0.1:7380/tpns"),
      ("http://localhost:7380/tpns", "http://127.0.0.1:7380/tpns"),
      ("HTTP://LocalHost:7380/tpns", "http://127.0.0.1:7380/tpns"),
      ("http://localhost:7380/tpns/", "http://127.0.0.1:7380/tpns/"),
      ("http://127.1.2.3:7380/tpns", "http://127.1.2.3:7380/tpns"),
      ("http://[::1]:7380/tpns", "http://[::1]:7380/tpns"),
      ("http://[::ffff:127.0.0.1]:7380/tpns", "http://[::ffff:127.0.0.1]:7380/tpns"),
      ("http://localhost.:7380/tpns", "http://127.0.0.1:7380/tpns"),
      ("http://me:pw@localhost:7380/tpns", "http://127.0.0.1:7380/tpns"),
      ("http://Push.Example:80/tpns", "http://push.example/tpns"),
      ("https://push.example:443/tpns", "https://push.example/tpns"),
      ("https://push.example:80/tpns", "https://push.example:80/tpns"),
      ("http://push.example:0080/tpns", "http://push.example/tpns"),
      ("http://push.example:", "http://push.example/"),
      ("http://push.example/", "http://push.example/"),
      ("http://push.example/TPNS", "http://push.example/TPNS"),
      ("http://push.example/tpns/?key=K", "http://push.example/tpns/?key=K"),
      ("http://push.example/tpns#top", "http://push.example/tpns"),
      ("http://[2001:DB8::1]:8080/tpns", "http://[2001:db8::1]:8080/tpns"),
      ("not a url", "not a url"),
    ])
  func storeKey(url: String, key: String) {
    #expect(ServerURL(url).storeKey == key)
  }

  @Test(
    "spellings of other servers stay other keys",
    arguments: [
      ("http://127.0.0.1:7380/tpns", "http://127.0.0.1:7381/tpns"),
      ("http://127.0.0.1:7380/tpns", "https://127.0.0.1:7380/tpns"),
      ("http://push.example/tpns", "http://push.example/tpns2"),
      ("http://push.example/tpns", "http://push.example.org/tpns"),
      ("http://push.example/tpns?key=a", "http://push.example/tpns?key=b"),
      ("http://10.0.0.1/tpns", "http://localhost/tpns"),
      // Other loopback addresses may be other sockets; another path is another resource.
      ("http://127.0.0.1:7380/tpns", "http://[::1]:7380/tpns"),
      ("http://127.0.0.1:7380/tpns", "http://127.0.0.2:7380/tpns"),
      ("http://127.0.0.1:7380/tpns", "http://127.0.0.1:7380/tpns/"),
    ])
  func otherServers(first: String, second: String) {
    #expect(ServerURL(first).storeKey != ServerURL(second).storeKey)
  }

  static func registration(_ token: PushToken) -> PhoneRegistration {
    PhoneRegistration(token: token, phone: Phone(os: .ios, udid: token.rawValue))
  }

  /// A store whose `Servers` has `entries` under the keys given, as a tpns
  /// from before the store key wrote it, read back by this one.
  static func read(_ entries: [String: Acknowledgement], uids: [String]) throws -> StoreContents {
    var written = StoreContents()
    written.uids = uids
    written.registration = registration(token)
    written.servers = entries
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    // Written with the keys as given (the writer writes `servers` as it is).
    try store.update { $0 = written }
    let text = try String(contentsOfFile: directory.file("state.plist"), encoding: .utf8)
    for key in entries.keys { #expect(text.contains("<key>\(key)</key>")) }
    // Rewritten with a byte more, so that it is parsed, not taken as the state just written.
    try (text + "\n").write(
      toFile: directory.file("state.plist"), atomically: true, encoding: .utf8)
    return try Store(path: directory.file("state.plist")).load()
  }

  @Test(
    "an old store with two spellings of one server that agree is read as one entry, acknowledged"
  )
  func agreeingSpellings() throws {
    let acknowledgement = Acknowledgement(
      registration: Self.registration(Self.token), uids: [Self.a])
    let state = try Self.read(
      [
        "http://127.0.0.1:7380/tpns": acknowledgement,
        "HTTP://localhost:7380/tpns": acknowledgement,
      ], uids: [Self.a])
    #expect(Array(state.servers.keys) == ["http://127.0.0.1:7380/tpns"])
    for spelling in ["http://localhost:7380/tpns", "HTTP://LocalHost:7380/tpns"] {
      let difference = state.difference(at: ServerURL(spelling).storeKey)
      #expect(difference.isRegistered)
      #expect(!difference.isPending)
    }
  }

  @Test(
    "an old store with two spellings of one server whose lists disagree: the list is not acknowledged, and is sent whole"
  )
  func disagreeingLists() throws {
    let state = try Self.read(
      [
        "http://127.0.0.1:7380/tpns": Acknowledgement(
          registration: Self.registration(Self.token), uids: [Self.a, Self.b]),
        "http://localhost:7380/tpns": Acknowledgement(
          registration: Self.registration(Self.token), uids: [Self.a]),
      ], uids: [Self.a, Self.b])
    let key = ServerURL("http://localhost:7380/tpns").storeKey
    #expect(state.servers.count == 1)
    #expect(state.acknowledged(at: key).uids == nil)
    let difference = state.difference(at: key)
    #expect(difference.isRegistered)
    #expect(difference.isPending)
    #expect(difference.toAdd == [Self.a, Self.b])
  }

  @Test(
    "an old store with two spellings of one server whose registrations disagree: not registered, and both phones are former phones to unmap"
  )
  func disagreeingRegistrations() throws {
    let state = try Self.read(
      [
        "http://127.0.0.1:7380/tpns": Acknowledgement(
          registration: Self.registration(Self.token), uids: [Self.a]),
        "http://localhost:7380/tpns": Acknowledgement(
          registration: Self.registration(Self.other), uids: [Self.a]),
      ], uids: [Self.a])
    let key = ServerURL("http://127.0.0.1:7380/tpns").storeKey
    let acknowledged = state.acknowledged(at: key)
    #expect(acknowledged.registration == nil)
    #expect(acknowledged.uids == nil)
    let difference = state.difference(at: key)
    #expect(!difference.isRegistered)
    #expect(difference.needsRegistration)
    // The desired phone is registered again; the other one is unmapped.
    #expect(difference.formerPhones == [Self.registration(Self.other).phone])
    #expect(
      ReconcileStep.next(in: state, at: key, demand: Demand())
        == .register(Self.registration(Self.token)))
  }

  @Test("the earlier format's Server is read under its store key")
  func legacyServer() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>UIDs</key><array><string>\(Self.a)</string></array>
      <key>Token</key><string>\(Self.token.rawValue)</string>
      <key>Server</key><string>http://LOCALHOST:7380/tpns</string>
      <key>Registered</key><true/>
      <key>SyncedUIDs</key><array><string>\(Self.a)</string></array>
      </dict></plist>
      """
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let state = try Store(path: path).load()
    #expect(Array(state.servers.keys) == ["http://127.0.0.1:7380/tpns"])
    #expect(!state.difference(at: "http://127.0.0.1:7380/tpns").isPending)
  }
}
