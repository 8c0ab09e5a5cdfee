import TPNSTestSupport
import Testing

@testable import TPNSEmulator

/// An in-memory registry answers registrations from its index of phones and writes
/// them behind (see `Registry.register(_:tokenKey:)`): whatever reads it must see
/// exactly what registering each at once would have left.
@Suite("Registry: registrations written behind")
struct RegistryWriteBehindTests {
  static let appid = "com.example.app"

  static func phone(_ udid: Int, token: Int?, at time: Int64, lang: String = "en")
    -> ClientRecord
  {
    ClientRecord(
      os: "android", appid: appid, udid: "udid-\(udid)", token: token.map { "token-\($0)" },
      lang: lang, dev: nil, bgfetch: nil, extra: nil, registeredAt: time, lastSeen: time)
  }

  /// Registers `record` in `registry` (written behind) and, at once, in `reference`.
  static func register(
    _ record: ClientRecord, in registry: Registry, reference: Registry
  ) throws -> (Bool, Bool) {
    let tokenKey = record.token!
    let answered = try registry.register(record, tokenKey: tokenKey)
    let expected = try reference.write(inTransaction: false) {
      try $0.upsert(record, tokenKey: tokenKey)
    }
    return (answered, expected)
  }

  @Test("a registration is seen by the next read, new or not")
  func readSeesRegistration() throws {
    let registry = try Registry(path: nil)
    #expect(registry.defersRegistrations)
    #expect(try registry.register(Self.phone(1, token: 1, at: 10), tokenKey: "token-1"))
    #expect(try registry.read { try $0.clients() } == [Self.phone(1, token: 1, at: 10)])
    #expect(!(try registry.register(Self.phone(1, token: 1, at: 20), tokenKey: "token-1")))
    #expect(!(try registry.register(Self.phone(1, token: 1, at: 30), tokenKey: "token-1")))
    var expected = Self.phone(1, token: 1, at: 10)
    expected.lastSeen = 30
    #expect(try registry.read { try $0.clients() } == [expected])
  }

  @Test("a file registry writes each registration at once")
  func fileRegistryWritesAtOnce() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry.sqlite")
    let registry = try Registry(path: path)
    defer { registry.close() }
    #expect(!registry.defersRegistrations)
    #expect(try registry.register(Self.phone(1, token: 1, at: 10), tokenKey: "token-1"))
    let other = try RegistryStore(path: path)
    defer { other.close() }
    #expect(try other.clients() == [Self.phone(1, token: 1, at: 10)])
  }

  @Test(
    "a token claimed back by a refresh stays with the phone that claimed it last",
    arguments: [
      // (udid, token) registrations, in order
      [(1, 1), (2, 1), (1, 1)],
      [(1, 1), (2, 1), (2, 2), (1, 1)],
      [(1, 1), (1, 1), (2, 1)],
      [(1, 1), (2, 1), (2, 2)],
      [(1, 1), (2, 2), (1, 2), (2, 2), (1, 1)],
    ])
  func tokenMoves(_ registrations: [(Int, Int)]) throws {
    let registry = try Registry(path: nil)
    let reference = try Registry(path: nil)
    for (udid, _) in registrations {  // known phones: their refreshes are updates
      _ = try Self.register(Self.phone(udid, token: 0, at: 1), in: registry, reference: reference)
    }
    for (time, (udid, token)) in registrations.enumerated() {
      let (answered, expected) = try Self.register(
        Self.phone(udid, token: token, at: Int64(time + 2)), in: registry, reference: reference)
      #expect(answered == expected)
    }
    #expect(try registry.read { try $0.clients() } == reference.read { try $0.clients() })
  }

  @Test("random registrations, reads and resets leave what registering at once leaves")
  func randomSequences() throws {
    var generator = XorShift(seed: 16)
    for _ in 0..<200 {
      let registry = try Registry(path: nil)
      let reference = try Registry(path: nil)
      for time in 0..<Int64.random(in: 1...60, using: &generator) {
        switch Int.random(in: 0..<20, using: &generator) {
        case 0:
          #expect(try registry.read { try $0.clients() } == reference.read { try $0.clients() })
        case 1:
          try registry.write { try $0.reset() }
          try reference.write { try $0.reset() }
        default:
          let record = Self.phone(
            Int.random(in: 0..<4, using: &generator),
            token: Int.random(in: 0..<3, using: &generator),
            at: time, lang: ["en", "ja"].randomElement(using: &generator)!)
          let (answered, expected) = try Self.register(
            record, in: registry, reference: reference)
          #expect(answered == expected)
        }
      }
      #expect(try registry.read { try $0.clients() } == reference.read { try $0.clients() })
    }
  }

  @Test("past a batch, every registration is written once, in order")
  func pastABatch() throws {
    let registry = try Registry(path: nil)
    let count = Registry.registrationBatch + 10
    for number in 0..<count {
      #expect(
        try registry.register(
          Self.phone(number, token: number, at: Int64(number)), tokenKey: "token-\(number)"))
    }
    let clients = try registry.read { try $0.clients() }
    #expect(clients.count == count)
    #expect(clients.first == Self.phone(0, token: 0, at: 0))
    #expect(clients.last == Self.phone(count - 1, token: count - 1, at: Int64(count - 1)))
  }

  @Test("a phone added behind the index is answered as known")
  func addedBehindTheIndex() throws {
    let registry = try Registry(path: nil)
    let record = Self.phone(1, token: 1, at: 5)
    #expect(try registry.write(inTransaction: false) { try $0.upsert(record, tokenKey: "token-1") })
    #expect(!(try registry.register(record, tokenKey: "token-1")))
    try registry.write { try $0.reset() }
    #expect(try registry.register(record, tokenKey: "token-1"))
  }
}
