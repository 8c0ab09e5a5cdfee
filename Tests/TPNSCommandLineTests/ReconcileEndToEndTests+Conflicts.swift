import Foundation
import Locking
import TPNSEmulator
import TPNSTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Reconciliation when something stands in the way: a register the server
/// rejects, a held lock, a hand-edited store, overlapping registrations.
extension ReconcileEndToEndTests {
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
