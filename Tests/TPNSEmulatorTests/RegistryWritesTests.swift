import TPNSTestSupport
import Testing

@testable import TPNSEmulator

/// Each write of the registry is made when it is asked for: a command all or nothing,
/// a registration (one statement, autocommitted) kept once it returns.
@Suite("Registry: writes")
struct RegistryWritesTests {
  struct Refused: Error {}

  static func phone(_ number: Int) -> ClientRecord {
    let token = String(repeating: "0", count: 60) + String(number + 1000)
    return ClientRecord(
      os: "ios", appid: "com.example.app", udid: token, token: token, lang: "en", dev: 1,
      bgfetch: nil, extra: nil, registeredAt: Int64(number), lastSeen: Int64(number))
  }

  static func register(_ number: Int, in store: RegistryStore) throws -> Bool {
    let phone = phone(number)
    return try store.upsert(phone, tokenKey: phone.token!)
  }

  @Test("a command that throws changes nothing; those before and after it stay")
  func failedCommand() throws {
    let registry = try Registry(path: nil)
    #expect(try registry.write(inTransaction: false) { try Self.register(1, in: $0) })
    #expect(throws: Refused.self) {
      try registry.write { store in
        _ = try Self.register(2, in: store)
        _ = try store.addMapping(
          appid: "com.example.app", udid: Self.phone(1).udid,
          MappingChange(uid: "ABCDEFGHJKLMNPRSTUVW", interval: nil, format: nil, extra: nil),
          now: 5)
        throw Refused()
      }
    }
    #expect(try registry.write(inTransaction: false) { try Self.register(3, in: $0) })
    let clients = try registry.read { try $0.clients() }
    #expect(clients.map(\.udid) == [Self.phone(1).udid, Self.phone(3).udid])
    #expect(try registry.read { try $0.mappings() }.isEmpty)
  }

  @Test("many registrations and their refreshes are each kept once, in order")
  func manyWrites() throws {
    let registry = try Registry(path: nil)
    let count = 2007
    for number in 0..<count {
      #expect(try registry.write(inTransaction: false) { try Self.register(number, in: $0) })
    }
    for number in 0..<count {  // again: each an update now
      #expect(!(try registry.write(inTransaction: false) { try Self.register(number, in: $0) }))
    }
    #expect(throws: Refused.self) {
      try registry.write { store in
        try store.reset()
        throw Refused()
      }
    }
    let clients = try registry.read { try $0.clients() }
    #expect(clients.count == count)
    #expect(clients.first == Self.phone(0))
    #expect(clients.last == Self.phone(count - 1))
  }

  @Test("a token moved to another phone (a statement that fails, then a savepoint) is kept")
  func movedToken() throws {
    let registry = try Registry(path: nil)
    let first = Self.phone(1)
    var second = Self.phone(2)
    second.token = first.token
    #expect(
      try registry.write(inTransaction: false) { try $0.upsert(first, tokenKey: first.token!) })
    #expect(
      try registry.write(inTransaction: false) { try $0.upsert(second, tokenKey: first.token!) })
    let clients = try registry.read { try $0.clients() }
    #expect(clients.map(\.token) == [nil, first.token])
  }

  @Test("a file registry holds a registration once it is answered")
  func fileRegistryHoldsRegistration() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry.sqlite")
    let registry = try Registry(path: path)
    defer { registry.close() }
    #expect(
      try registry.write(inTransaction: false) {
        try $0.upsert(Self.phone(1), tokenKey: Self.phone(1).token!)
      })
    let other = try RegistryStore(path: path)
    defer { other.database.close() }
    #expect(try other.clients() == [Self.phone(1)])
  }
}
