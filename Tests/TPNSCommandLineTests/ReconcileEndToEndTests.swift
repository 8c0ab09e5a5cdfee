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

  // MARK: 7. a rejected register keeps the working token

  /// A registration that works, and one the server rejects.
  struct RejectedChange: Sendable, CustomTestStringConvertible {
    var name: String
    var working: [String]
    var rejected: [String]
    var phone: StoreFile.Registration

    var testDescription: String { name }

    static let all: [RejectedChange] = [
      RejectedChange(
        name: "another android token, same phone",
        working: ["register", "--os", "android", "--udid", "phone-one", androidToken],
        rejected: ["register", "--os", "android", "--udid", "phone-one", otherAndroidToken],
        phone: .init(token: androidToken, os: "android", udid: "phone-one")),
      RejectedChange(
        name: "another iOS token", working: ["register", t1], rejected: ["register", t2],
        phone: .init(token: t1)),
    ]
  }

  @Test(
    "a register the server rejects (400) exits 76 and leaves the working registration desired; a later add sends to that phone",
    arguments: RejectedChange.all)
  func rejectedRegisterKeepsWorkingToken(change: RejectedChange) throws {
    let world = try TwoServers()
    #expect(try world.run(change.working).status == 0)
    #expect(try world.run(["add", Self.a]).status == 0)
    try world.a.armFault(status: 400)
    var result = try world.run(change.rejected)
    #expect(result.status == 76, "\(result.stderr)")
    var store = try world.storeFile()
    #expect(store.desired == change.phone)
    try world.expectReplicas("after the rejected register")

    result = try world.run(["add", Self.b])
    #expect(result.status == 0, "\(result.stderr)")
    store = try world.storeFile()
    #expect(store.desired == change.phone)
    #expect(
      store.acknowledged(at: world.a.server)
        == .init(registration: change.phone, uids: [Self.a, Self.b]))
    #expect(Set(try world.a.mappedUIDs(udid: change.phone.udid)) == [Self.a, Self.b])
    try world.expectReplicas("after the add")
    try world.expectEvent(Self.b, reachesOnlyTheDesiredPhoneAt: world.a)
    #expect(try world.status().pending == false)
  }

  @Test(
    "a token that one server rejects stays desired when another server acknowledged it: only a rejected register keeps the previous token"
  )
  func rejectionAtOneServerKeepsWorkingToken() throws {
    let world = try TwoServers()
    #expect(try world.run(["register", Self.t1]).status == 0)
    #expect(try world.run(["register", Self.t2], at: world.b).status == 0)
    #expect(try world.run(["add", Self.a], at: world.b).status == 0)
    try world.expectReplicas("T1 at A, T2 with the list at B")

    try world.a.armFault(status: 400)
    var result = try world.run(["add", Self.b])
    #expect(result.status == 76, "\(result.stderr)")
    var store = try world.storeFile()
    #expect(store.desired == .init(token: Self.t2), "an add does not change the registration")
    #expect(store.acknowledged(at: world.b.server).registration == .init(token: Self.t2))
    try world.expectReplicas("after the rejection at A")

    let before = try world.b.requestLog().count
    result = try world.run(["sync"], at: world.b)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try world.b.requestLog().dropFirst(before).map(\.command) == ["mapsync"],
      "B acknowledged T2: nothing to register or unmap there")
    store = try world.storeFile()
    #expect(
      store.acknowledged(at: world.b.server)
        == .init(registration: .init(token: Self.t2), uids: [Self.a, Self.b]))
    try world.expectReplicas("after sync at B", reconciled: world.b)
    try world.expectEvent(Self.b, reachesOnlyTheDesiredPhoneAt: world.b)
  }

  // MARK: 8. lock waits end at --timeout

  enum HeldLock: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// The test process flocks `state.plist.sync.lock`.
    case sendLock
    /// The test process flocks `state.plist.lock`.
    case storeLock
    /// A `tpns sync` waiting on a server that never answers holds the send lock.
    case syncInFlight

    var testDescription: String { rawValue }
  }

  @Test(
    "a held lock makes add --timeout 3 exit 75 within about 3 s; behind the send lock the UID stays stored",
    arguments: HeldLock.allCases)
  func lockWaitEndsAtTimeout(lock: HeldLock) throws {
    let world = try TwoServers()
    #expect(try world.run(["register", Self.t1]).status == 0)
    let silent = try SilentListener()
    var holder: FileLock?
    var sync: Process?
    // SIGKILL: a child of the test runner may inherit SIGTERM blocked.
    defer {
      if let sync, sync.isRunning {
        kill(sync.processIdentifier, SIGKILL)
        sync.waitUntilExit()
      }
    }
    switch lock {
    case .sendLock: holder = try FileLock(path: world.store + ".sync.lock")
    case .storeLock: holder = try FileLock(path: world.store + ".lock")
    case .syncInFlight:
      let process = Process()
      process.executableURL = URL(fileURLWithPath: TPNSProcess.binary)
      process.arguments = ["sync", "--timeout", "60"]
      process.environment = TPNSProcess.environment(
        store: world.store, server: "http://127.0.0.1:\(silent.port)/tpns")
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      process.standardInput = FileHandle.nullDevice
      try process.run()
      sync = process
      #expect(
        WatchTests.eventually(within: .seconds(10)) {
          FileLock.isHeld(path: world.store + ".sync.lock")
        }, "the background sync holds the send lock")
    }
    let bytes = contents(of: world.store)
    let before = try world.a.requestLog().count
    let start = ContinuousClock.now
    let result = try world.tpns().run(["add", Self.a, "--timeout", "3"], timeout: .seconds(20))
    let elapsed = ContinuousClock.now - start
    #expect(result.status == 75, "\(result.stderr)")
    #expect(elapsed <= .milliseconds(3500), "exit after \(elapsed)")
    #expect(result.stderr.contains(".lock"), "\(result.stderr)")
    #expect(try world.a.requestLog().count == before)
    if lock == .storeLock {
      #expect(contents(of: world.store) == bytes)
    } else {
      #expect(try world.storeFile().uids == [Self.a])
    }
    holder?.release()
    if let sync {
      kill(sync.processIdentifier, SIGKILL)
      sync.waitUntilExit()
    }

    #expect(try world.run(["sync"]).status == 0)
    try world.expectReplicas("after the lock is released")
  }

  // MARK: 9. a hand-edited store that breaks the rules

  @Test(
    "a store whose UIDs hold a duplicate or an invalid UID: exit 65 naming the file, file byte-identical, nothing sent",
    arguments: [[a, a], [a, "ABC"], [a, a.lowercased()], [a, " \(a) "], [b, a, b]],
    [["list"], ["status"], ["add", c], ["sync"], ["remove", "0"]])
  func handEditedStore(uids: [String], command: [String]) throws {
    let world = try TwoServers()
    #expect(try world.run(["register", Self.t1]).status == 0)
    #expect(try world.run(["add", Self.a]).status == 0)
    let data = try #require(contents(of: world.store))
    var list = try #require(
      try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        as? [String: Any])
    list["UIDs"] = uids
    let edited = try PropertyListSerialization.data(
      fromPropertyList: list, format: .xml, options: 0)
    try edited.write(to: URL(fileURLWithPath: world.store))

    let before = try world.a.requestLog().count
    let result = try world.run(command)
    #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains(world.store), "\(result.stderr)")
    #expect(contents(of: world.store) == edited)
    #expect(try world.a.requestLog().count == before)
  }

  @Test(
    "a hand-edited lowercase UID is read in its canonical form: one mapsync sends it, nothing is left pending"
  )
  func handEditedLowercaseUID() throws {
    let world = try TwoServers()
    #expect(try world.run(["register", Self.t1]).status == 0)
    #expect(try world.run(["add", Self.a]).status == 0)
    let data = try #require(contents(of: world.store))
    var list = try #require(
      try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        as? [String: Any])
    list["UIDs"] = [Self.a, Self.b.lowercased()]
    try PropertyListSerialization.data(fromPropertyList: list, format: .xml, options: 0)
      .write(to: URL(fileURLWithPath: world.store))

    var result = try world.run(["list"])
    #expect(result == .init(status: 0, stdout: "0  \(Self.a)\n1  \(Self.b)\n", stderr: ""))
    let before = try world.a.requestLog().count
    result = try world.run(["sync"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try world.a.requestLog().dropFirst(before).map(\.command) == ["mapsync"])
    #expect(try world.a.mappedUIDs(udid: Self.t1) == [Self.a, Self.b])
    let store = try world.storeFile()
    #expect(store.uids == [Self.a, Self.b])
    #expect(store.acknowledged(at: world.a.server).uids == [Self.a, Self.b])
    try world.expectReplicas("after sync", reconciled: world.a)
    let status = try world.status()
    #expect(status.pending == false)
    #expect(status.next == nil)
  }

  // MARK: 10. overlapping registrations of one phone

  /// Two registrations of one store's phone that overlap in time.
  struct Overlap: Sendable, CustomTestStringConvertible {
    var name: String
    var first: [String]
    var second: [String]
    var winner: StoreFile.Registration

    var testDescription: String { name }

    static let android = Overlap(
      name: "android, one udid",
      first: ["register", "--os", "android", "--udid", "phone-one", androidToken],
      second: ["register", "--os", "android", "--udid", "phone-one", otherAndroidToken],
      winner: .init(token: otherAndroidToken, os: "android", udid: "phone-one"))
    static let ios = Overlap(
      name: "iOS, two tokens", first: ["register", t1], second: ["register", t2],
      winner: .init(token: t2))
  }

  @Test(
    "a register retrying after a 503 while a second register of the phone runs: the server ends with the second, as the store says; sync leaves it so",
    arguments: [Overlap.android, Overlap.ios], 0..<5)
  func overlappingRegistrations(overlap: Overlap, run: Int) throws {
    let world = try TwoServers()
    #expect(try world.run(["add", "--no-sync", Self.a, Self.b]).status == 0)
    // The first register's first request is turned away and retried after 1 s;
    // the second starts in that second, after the first changed the store.
    try world.a.armFault(status: 503, count: 1, retryAfter: 1)
    let tpns = world.tpns()
    let results = LockedState<[Int: TPNSProcess.Result]>([:])
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      let result = try? tpns.run(overlap.first)
      results.withLock { $0[0] = result }
    }
    #expect(
      try WatchTests.eventually(within: .seconds(10)) {
        try world.a.requestLog().contains { $0.status == 503 }
      })
    DispatchQueue.global().async(group: group) {
      let result = try? tpns.run(overlap.second)
      results.withLock { $0[1] = result }
    }
    #expect(group.wait(timeout: .now() + 60) == .success)
    #expect(results.value[1]?.status == 0, "\(results.value[1]?.stderr ?? "")")

    var store = try world.storeFile()
    #expect(store.desired == overlap.winner)
    #expect(store.acknowledged(at: world.a.server).registration == overlap.winner)
    let row = try world.a.registry().client(
      appID: overlap.winner.appID, udid: overlap.winner.udid)
    #expect(row?.token == overlap.winner.token)
    try world.expectReplicas("after both registers")
    #expect(try world.run(["sync"]).status == 0)
    store = try world.storeFile()
    #expect(store.acknowledged(at: world.a.server).registration == overlap.winner)
    let mappings = try world.a.registry().mappings
    #expect(Set(mappings.map(\.udid)) == [overlap.winner.udid], "only the desired phone")
    #expect(Set(mappings.map(\.uid)) == [Self.a, Self.b])
    try world.expectReplicas("after sync")
    try world.expectEvent(Self.a, reachesOnlyTheDesiredPhoneAt: world.a)
  }
}

// MARK: - Support

/// Two emulators (`a` is the default server), one store, and the `tpns`
/// binary pointed at either.
final class TwoServers {
  let directory: TemporaryDirectory
  let a: RunningEmulator
  let b: RunningEmulator
  let store: String

  /// With `persistentA`, `a`'s registry is a file, so that it survives
  /// `a.emulator.stop()` and `a.restart()`; `b`'s is in memory.
  init(persistentA: Bool = false) throws {
    directory = try TemporaryDirectory()
    a = try RunningEmulator(database: persistentA ? directory.file("a.db") : nil)
    b = try RunningEmulator()
    store = directory.file("state.plist")
  }

  /// `tpns` with the store, against `server` (`a` by default).
  func tpns(at server: RunningEmulator? = nil) -> TPNSProcess {
    TPNSProcess(store: store, server: (server ?? a).server)
  }

  /// Runs `tpns arguments` against `server` (`a` by default).
  func run(_ arguments: [String], at server: RunningEmulator? = nil) throws -> TPNSProcess.Result {
    try tpns(at: server).run(arguments)
  }

  func storeFile() throws -> StoreFile {
    try StoreFile(path: store)
  }

  /// `tpns status --json` against `server` (`a` by default).
  func status(at server: RunningEmulator? = nil) throws -> StatusReport {
    let result = try run(["status", "--json"], at: server)
    #expect(result.status == 0, "\(result.stderr)")
    return StatusReport(jsonDocument(result))
  }

  /// Expects each running emulator (but those in `except`) to hold exactly
  /// what the store says it acknowledged; the server a command just
  /// `reconciled` (exit 0) must have no former phone left to unmap.
  func expectReplicas(
    _ step: String, except: [RunningEmulator] = [], reconciled: RunningEmulator? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let store = try storeFile()
    if let reconciled {
      #expect(
        store.acknowledged(at: reconciled.server).formerPhones == [],
        "\(step): a former phone is left to unmap", sourceLocation: sourceLocation)
    }
    for (name, server) in [("A", a), ("B", b)]
    where server.emulator.isRunning && !except.contains(where: { $0 === server }) {
      let mismatches = try server.replicaMismatches(of: store)
      #expect(mismatches == [], "\(step): server \(name)", sourceLocation: sourceLocation)
    }
  }

  /// Runs `tpns event uid` at `server` and expects exactly one new
  /// notification, for the store's desired phone and token.
  func expectEvent(
    _ uid: String, reachesOnlyTheDesiredPhoneAt server: RunningEmulator,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let desired = try #require(try storeFile().desired, sourceLocation: sourceLocation)
    let seen = Set(try server.notifications().map(\.id))
    let result = try run(["event", uid], at: server)
    #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
    let new = try server.notifications().filter { !seen.contains($0.id) }
    #expect(
      new.map(\.udid) == [desired.udid], "event \(uid) reaches \(new)",
      sourceLocation: sourceLocation)
    #expect(
      new.allSatisfy { desired.holds(token: $0.token) && $0.appID == desired.appID },
      "event \(uid) reaches \(new)", sourceLocation: sourceLocation)
  }
}

/// `tpns status --json`, in the fields the reconcile tests read.
struct StatusReport: Equatable {
  var registered: Bool?
  var registeredServer: String?
  var pending: Bool?
  /// A count (a list is counted).
  var toAdd: Int?
  var toRemove: Int?
  var next: String?
  var uids: [String]?
  /// The keys of the spec the document does not have.
  var missingKeys: [String]

  init(_ document: [String: Any]) {
    func count(_ key: String) -> Int? {
      (document[key] as? Int) ?? (document[key] as? [Any])?.count
    }
    registered = document["registered"] as? Bool
    registeredServer = document["registered_server"] as? String
    pending = document["pending"] as? Bool
    toAdd = count("to_add")
    toRemove = count("to_remove")
    next = document["next"] as? String
    uids = document["uids"] as? [String]
    missingKeys = [
      "registered", "registered_server", "pending", "to_add", "to_remove", "next", "uids",
      "token", "os",
    ].filter { document[$0] == nil }
  }
}

/// The one JSON document a `--json` command printed ([:] if none).
func jsonDocument(_ result: TPNSProcess.Result) -> [String: Any] {
  let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
  return object as? [String: Any] ?? [:]
}

/// The `event` of each outcome of a `--json` command, in order, without `retrying`.
func outcomeEvents(_ result: TPNSProcess.Result) -> [String] {
  (jsonDocument(result)["outcomes"] as? [[String: Any]] ?? []).compactMap {
    $0["event"] as? String
  }.filter { $0 != "retrying" }
}

/// An exclusive `flock` on a file, held from `init` until deinit: another
/// process's lock, as `tpns` sees it.
final class FileLock {
  private var descriptor: Int32

  init(path: String) throws {
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      throw POSIXError(.EAGAIN)
    }
  }

  deinit {
    release()
  }

  /// Releases the lock (closing the descriptor releases the flock).
  func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  /// Whether another open file description holds a lock on `path`.
  static func isHeld(path: String) -> Bool {
    (try? FileLock(path: path)) == nil && FileManager.default.fileExists(atPath: path)
  }
}
