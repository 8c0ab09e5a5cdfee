import Foundation
import Locking
import TPNSEmulator
import TPNSTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Reconciliation end to end: every sending command reconciles the server in use
/// with the store's desired state. Black box: the built `tpns`, emulators in
/// process, the store read with Foundation. After every step each running
/// emulator's registry must equal what the store says that server acknowledged.
@Suite struct ReconcileEndToEndTests {
  static let t1 = String(repeating: "0f", count: 32)
  static let t2 = String(repeating: "a1", count: 32)
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"
  static let c = "RECONCILE00000000003"
  static let androidToken = "android-token-one"
  static let otherAndroidToken = "android-token-two"

  // MARK: 1. a failed register is sent later with everything it asked for

  @Test("a register refused with 503s is sent by the next sync with its --dev and --lang")
  func failedRegisterKeepsDevAndLanguage() throws {
    let world = try TwoServers()
    var result = try world.run(["add", "--no-sync", Self.a])
    #expect(result.status == 0, "\(result.stderr)")
    try world.a.armFault(status: 503, count: 3, retryAfter: 0)
    result = try world.run(["register", Self.t1, "--dev", "--lang", "de"])
    #expect(result.status == 75, "\(result.stderr)")
    var store = try world.storeFile()
    #expect(store.desired == .init(token: Self.t1, language: "de", dev: true))
    #expect(store.acknowledged(at: world.a.server).registration == nil)
    try world.expectReplicas("after the refused register")
    #expect(try world.a.registry().clients.isEmpty)

    let before = try world.a.requestLog().count
    result = try world.run(["sync"])
    #expect(result.status == 0, "\(result.stderr)")
    let sent = try world.a.requestLog().dropFirst(before)
    #expect(sent.map(\.command) == ["client", "mapsync"])
    let client = sent.first { $0.command == "client" }
    #expect(client?.parameters["dev"] == "1")
    #expect(client?.parameters["lang"] == "de")
    let row = try world.a.registry().client(appID: StoreFile.defaultAppID, udid: Self.t1)
    #expect(row?.dev == 1)
    #expect(row?.language == "de")
    store = try world.storeFile()
    #expect(store.acknowledged(at: world.a.server).registration == store.desired)
    try world.expectReplicas("after sync")
    try world.expectEvent(Self.a, reachesOnlyTheDesiredPhoneAt: world.a)
    let status = try world.status()
    #expect(status.registered == true)
    #expect(status.pending == false)
  }

  // MARK: 2. a new phone identity: the old phone's mappings go first

  /// Two registrations of one user's phone with different identities at the server.
  struct PhoneChange: Sendable, CustomTestStringConvertible {
    var name: String
    var first: [String]
    var second: [String]
    var oldPhone: StoreFile.Registration
    var newPhone: StoreFile.Registration

    var testDescription: String { name }

    static let all: [PhoneChange] = [
      PhoneChange(
        name: "another iOS token", first: ["register", t1], second: ["register", t2],
        oldPhone: .init(token: t1), newPhone: .init(token: t2)),
      PhoneChange(
        name: "another android --udid",
        first: ["register", "--os", "android", "--udid", "phone-one", androidToken],
        second: ["register", "--os", "android", "--udid", "phone-two", androidToken],
        oldPhone: .init(token: androidToken, os: "android", udid: "phone-one"),
        newPhone: .init(token: androidToken, os: "android", udid: "phone-two")),
      PhoneChange(
        name: "another --appid",
        first: [
          "register", "--os", "android", "--udid", "phone-one", "--appid", "com.example.one",
          androidToken,
        ],
        second: [
          "register", "--os", "android", "--udid", "phone-one", "--appid", "com.example.two",
          androidToken,
        ],
        oldPhone: .init(
          token: androidToken, os: "android", appID: "com.example.one", udid: "phone-one"),
        newPhone: .init(
          token: androidToken, os: "android", appID: "com.example.two", udid: "phone-one")),
      PhoneChange(
        name: "ios to android", first: ["register", t1],
        second: ["register", "--os", "android", "--udid", "phone-one", androidToken],
        oldPhone: .init(token: t1),
        newPhone: .init(token: androidToken, os: "android", udid: "phone-one")),
    ]
  }

  @Test(
    "a register of another phone removes the old phone's mappings (unreg_mapping), then maps the list to the new one; the other server follows at its next sync",
    arguments: PhoneChange.all)
  func newPhoneIdentity(change: PhoneChange) throws {
    let world = try TwoServers()
    #expect(try world.run(change.first).status == 0)
    #expect(try world.run(["add", Self.a, Self.b]).status == 0)
    #expect(try world.run(["sync"], at: world.b).status == 0)
    try world.expectReplicas("both servers have the old phone")
    #expect(try world.storeFile().acknowledged(at: world.b.server).registration == change.oldPhone)

    let before = try world.a.requestLog().count
    var result = try world.run(change.second + ["--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let events = outcomeEvents(result)
    #expect(events.contains("unregistered"), "\(result.stdout)")
    #expect(events.contains("registered"))
    #expect(events.contains("synced"))
    // The spec sends unreg_mapping first; main registers the new phone first
    // (a rejected token then leaves the working phone untouched). Either way
    // the old phone is unmapped before the new one is mapped.
    let sent = Array(try world.a.requestLog().dropFirst(before))
    #expect(sent.map(\.command).sorted() == ["client", "mapsync", "unreg_mapping"])
    #expect(
      (sent.firstIndex { $0.command == "unreg_mapping" } ?? 3)
        < (sent.firstIndex { $0.command == "mapsync" } ?? 0), "\(sent)")
    if let unregister = sent.first(where: { $0.command == "unreg_mapping" }) {
      #expect(unregister.parameters["udid"] == change.oldPhone.udid)
      #expect(unregister.parameters["appid"] == change.oldPhone.appID)
      #expect(unregister.parameters["os"] == change.oldPhone.os)
      #expect(unregister.parameters["uid"] == nil, "unreg_mapping without uid removes them all")
    }
    var store = try world.storeFile()
    #expect(store.desired == change.newPhone)
    #expect(
      store.acknowledged(at: world.a.server)
        == .init(registration: change.newPhone, uids: [Self.a, Self.b]))
    #expect(store.acknowledged(at: world.b.server).registration == change.oldPhone)
    try world.expectReplicas("A has the new phone, B still the old one", reconciled: world.a)
    #expect(
      Set(try world.a.mappedUIDs(udid: change.newPhone.udid)) == [Self.a, Self.b])
    try world.expectEvent(Self.a, reachesOnlyTheDesiredPhoneAt: world.a)
    var status = try world.status()
    #expect(status.registered == true)
    #expect(status.registeredServer == world.a.server)
    #expect(status.pending == false)
    #expect(status.next == nil)
    #expect(status.missingKeys == [])

    status = try world.status(at: world.b)
    #expect(status.registered == false)
    #expect(status.pending == true)
    #expect(status.registeredServer == world.a.server)
    result = try world.run(["sync"], at: world.b)
    #expect(result.status == 0, "\(result.stderr)")
    store = try world.storeFile()
    #expect(
      store.acknowledged(at: world.b.server)
        == .init(registration: change.newPhone, uids: [Self.a, Self.b]))
    try world.expectReplicas("B has the new phone too", reconciled: world.b)
    try world.expectEvent(Self.b, reachesOnlyTheDesiredPhoneAt: world.b)
    #expect(try world.status(at: world.b).pending == false)
  }

  // MARK: 3. a server that forgot the phone

  @Test(
    "a server that forgot everything (restarted without its database) is registered again and given the list by the next sending command",
    arguments: [
      (["sync"], [a, b]), (["add", c], [a, b, c]), (["remove", "--uid", b], [a]),
    ] as [([String], [String])])
  func serverForgotThePhone(command: [String], uids: [String]) throws {
    let world = try TwoServers()
    #expect(try world.run(["register", Self.t1]).status == 0)
    #expect(try world.run(["add", Self.a, Self.b]).status == 0)
    #expect(try world.run(["sync"], at: world.b).status == 0)
    try world.expectReplicas("both servers have the list")

    try world.a.restartForgettingEverything()
    #expect(try world.a.registry().clients.isEmpty)
    let result = try world.run(command)
    #expect(result.status == 0, "\(result.stderr)")
    let registry = try world.a.registry()
    #expect(registry.client(appID: StoreFile.defaultAppID, udid: Self.t1)?.token == Self.t1)
    #expect(Set(try world.a.mappedUIDs(udid: Self.t1)) == Set(uids))
    let store = try world.storeFile()
    #expect(Set(store.uids) == Set(uids))
    #expect(store.acknowledged(at: world.a.server).registration == .init(token: Self.t1))
    try world.expectReplicas("A registered again, B untouched")
    try world.expectEvent(Self.a, reachesOnlyTheDesiredPhoneAt: world.a)
    #expect(try world.status().pending == false)
  }

  @Test(
    "beyond the spec: a register of a new phone at a server that forgot the old one finishes (the old phone has nothing left to unmap there)"
  )
  func serverForgotTheOldPhone() throws {
    let world = try TwoServers()
    #expect(try world.run(["register", Self.t1]).status == 0)
    #expect(try world.run(["add", Self.a, Self.b]).status == 0)
    try world.a.restartForgettingEverything()
    let result = try world.run(["register", Self.t2])
    #expect(result.status == 0, "\(result.stderr)")
    let store = try world.storeFile()
    #expect(store.desired == .init(token: Self.t2))
    #expect(
      store.acknowledged(at: world.a.server)
        == .init(registration: .init(token: Self.t2), uids: [Self.a, Self.b]))
    try world.expectReplicas("the new phone registered and mapped", reconciled: world.a)
    try world.expectEvent(Self.a, reachesOnlyTheDesiredPhoneAt: world.a)
    #expect(try world.status().pending == false)
  }

  // MARK: 4. status describes the server in use

  @Test(
    "status against a server that has nothing: not registered, pending, next 'tpns sync'; registered_server is only ever a server that acknowledged the registration"
  )
  func statusPerServer() throws {
    let world = try TwoServers()
    #expect(try world.run(["register", Self.t1]).status == 0)
    #expect(try world.run(["add", Self.a]).status == 0)
    var status = try world.status(at: world.b)
    #expect(status.missingKeys == [])
    #expect(status.registered == false)
    #expect(status.registeredServer == world.a.server)
    #expect(status.pending == true)
    #expect(status.toAdd == 1)
    #expect(status.toRemove == 0)
    #expect(status.next == "tpns sync")
    #expect(status.uids == [Self.a])
    let text = try world.run(["status"], at: world.b)
    #expect(text.status == 0)
    #expect(text.stdout.contains("tpns sync"), "\(text.stdout)")

    // A register that every attempt of failed: the new token was acknowledged nowhere.
    try world.b.armFault(status: 503, count: 3, retryAfter: 0)
    let result = try world.run(["register", Self.t2], at: world.b)
    #expect(result.status == 75, "\(result.stderr)")
    #expect(try world.storeFile().desired == .init(token: Self.t2))
    try world.expectReplicas("after the refused register")
    for server in [world.a, world.b] {
      status = try world.status(at: server)
      #expect(status.registered == false, "at \(server.server)")
      #expect(status.registeredServer == nil, "at \(server.server)")
      #expect(status.pending == true, "at \(server.server)")
      #expect(status.next == "tpns sync", "at \(server.server)")
    }

    // No token at all, UIDs stored: what to run next is register, never sync.
    let other = TPNSProcess(store: world.directory.file("other.plist"), server: world.a.server)
    #expect(try other.run(["add", Self.b]).status == 0)
    let document = try jsonDocument(other.run(["status", "--json"]))
    status = StatusReport(document)
    #expect(status.registered == false)
    #expect(status.registeredServer == nil)
    #expect(status.pending == true)
    #expect(status.next == "tpns register --token-file FILE")
    let hint = try other.run(["status"])
    #expect(hint.stdout.contains("tpns register --token-file FILE"), "\(hint.stdout)")
    #expect(!hint.stdout.contains("tpns sync"), "\(hint.stdout)")
    #expect(try world.a.registry().clients.count == 1, "the other store sent nothing")
  }

  // MARK: 5. a command whose change is already stored still sends it

  @Test(
    "server down: add exits 69; back: the same add (already present) exits 0 and sends the list; the same for remove --uid"
  )
  func alreadyStoredChangeIsSent() throws {
    let world = try TwoServers(persistentA: true)
    #expect(try world.run(["register", Self.t1]).status == 0)
    world.a.emulator.stop()

    var result = try world.run(["add", Self.a])
    #expect(result.status == 69, "\(result.stderr)")
    #expect(try world.storeFile().uids == [Self.a])
    try world.a.restart()
    try world.expectReplicas("the server back, before the add")
    var before = try world.a.requestLog().count
    result = try world.run(["add", Self.a, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(outcomeEvents(result) == ["already_present", "synced"], "\(result.stdout)")
    #expect(try world.a.requestLog().dropFirst(before).map(\.command) == ["mapsync"])
    #expect(try world.a.mappedUIDs(udid: Self.t1) == [Self.a])
    try world.expectReplicas("after the second add")
    try world.expectEvent(Self.a, reachesOnlyTheDesiredPhoneAt: world.a)

    world.a.emulator.stop()
    result = try world.run(["remove", "--uid", Self.a])
    #expect(result.status == 69, "\(result.stderr)")
    #expect(try world.storeFile().uids == [])
    try world.a.restart()
    before = try world.a.requestLog().count
    result = try world.run(["remove", "--uid", Self.a, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(outcomeEvents(result) == ["already_removed", "synced"], "\(result.stdout)")
    #expect(try world.a.requestLog().dropFirst(before).map(\.command) == ["mapsync"])
    #expect(try world.a.mappedUIDs(udid: Self.t1) == [])
    try world.expectReplicas("after the second remove")
    #expect(try world.status().pending == false)

    // Nowhere at all now: refused, nothing sent, nothing written.
    let bytes = contents(of: world.store)
    before = try world.a.requestLog().count
    result = try world.run(["remove", "--uid", Self.a])
    #expect(result.status == 65, "\(result.stderr)")
    #expect(try world.a.requestLog().count == before)
    #expect(contents(of: world.store) == bytes)
  }

  // MARK: 6. another server: registered there first

  @Test(
    "registered at A, add with TPNS_SERVER=B registers at B then maps (exit 0); with B down it exits 69"
  )
  func addAtAnotherServer() throws {
    let world = try TwoServers()
    #expect(try world.run(["register", Self.t1]).status == 0)
    #expect(try world.run(["add", Self.a]).status == 0)
    world.b.emulator.stop()

    var result = try world.run(["add", Self.b], at: world.b)
    #expect(result.status == 69, "\(result.stderr)")
    #expect(try world.storeFile().uids == [Self.a, Self.b])
    try world.expectReplicas("B down", except: [world.b])
    #expect(try world.status(at: world.b).pending == true)

    try world.b.restart()
    result = try world.run(["add", Self.b], at: world.b)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try world.b.requestLog().map(\.command) == ["client", "mapsync"])
    #expect(Set(try world.b.mappedUIDs(udid: Self.t1)) == [Self.a, Self.b])
    #expect(try world.a.mappedUIDs(udid: Self.t1) == [Self.a], "A is not the server in use")
    try world.expectReplicas("B registered and mapped")
    try world.expectEvent(Self.b, reachesOnlyTheDesiredPhoneAt: world.b)
    #expect(try world.status(at: world.b).pending == false)
    #expect(try world.status(at: world.a).pending == true)

    result = try world.run(["add", Self.c], at: world.b)
    #expect(result.status == 0, "\(result.stderr)")
    world.b.emulator.stop()
    // Nothing to send: B acknowledged this list. A change must reach B: 69.
    result = try world.run(["add", Self.a, Self.c], at: world.b)
    #expect(result.status == 0, "\(result.stderr)")
    result = try world.run(["remove", "--uid", Self.c], at: world.b)
    #expect(result.status == 69, "\(result.stderr)")
    #expect(try world.storeFile().uids == [Self.a, Self.b])
  }
}
