import Foundation
import TPNSEmulator
import TPNSTestSupport
import Testing

@Suite struct WatchTests {
  /// Polls `condition` until it holds or `deadline` passes (no fixed sleeps).
  static func eventually(within deadline: Duration, _ condition: () throws -> Bool) rethrows -> Bool
  {
    let end = ContinuousClock.now + deadline
    while ContinuousClock.now < end {
      if try condition() { return true }
      usleep(20_000)
    }
    return try condition()
  }

  /// Starts `tpns watch` with `arguments` on `tpns`'s store and server, in the background.
  static func startWatch(_ tpns: TPNSProcess, _ arguments: [String] = []) throws -> Process {
    let watch = Process()
    watch.executableURL = URL(fileURLWithPath: TPNSProcess.binary)
    watch.arguments = ["watch"] + arguments
    watch.environment = TPNSProcess.environment(store: tpns.store, server: tpns.server)
    // Not a pipe: nobody reads it, and a pipe end it inherited must not keep a reader waiting.
    watch.standardOutput = FileHandle.nullDevice
    watch.standardError = FileHandle.nullDevice
    watch.standardInput = FileHandle.nullDevice
    try watch.run()
    return watch
  }

  /// Whether `watch` comes to hold the watch lock of `store` (its pid in the
  /// lock file) within 10 s; false as soon as it exits.
  static func holdsLock(_ watch: Process, of store: String) -> Bool {
    func holds() -> Bool {
      String(decoding: contents(of: store + ".watch.lock") ?? Data(), as: UTF8.self)
        == "\(watch.processIdentifier)\n"
    }
    _ = eventually(within: .seconds(10)) { !watch.isRunning || holds() }
    return watch.isRunning && holds()
  }

  @Test(
    "watch creates the store's missing directories, as the other commands do",
    .timeLimit(.minutes(1)))
  func missingDirectories() throws {
    let directory = try TemporaryDirectory()
    let down = try SilentListener(listening: false)
    let tpns = TPNSProcess(
      store: directory.file("a/b/state.plist"), server: "http://127.0.0.1:\(down.port)/tpns")
    let watch = try Self.startWatch(tpns)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(Self.holdsLock(watch, of: tpns.store))
  }

  @Test(
    "one watch per store, whichever name it goes by: a watch of a link's target is refused",
    .timeLimit(.minutes(1)))
  func oneWatchThroughLink() throws {
    let directory = try TemporaryDirectory()
    let down = try SilentListener(listening: false)
    let server = "http://127.0.0.1:\(down.port)/tpns"
    let target = TPNSProcess(store: directory.file("real/state.plist"), server: server)
    #expect(try target.run(["add", "--no-sync", "ABCDEFGHJKLMNPRSTUVW"]).status == 0)
    let link = directory.file("state.plist")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.store)
    let watch = try Self.startWatch(TPNSProcess(store: link, server: server))
    defer { if watch.isRunning { watch.terminate() } }
    #expect(Self.holdsLock(watch, of: target.store))
    let second = try target.run(["watch"], timeout: .seconds(10))
    #expect(second.status == 75)
    #expect(second.stderr.contains("(pid \(watch.processIdentifier))"))
  }

  @Test(
    "watch keeps the emulator in sync with changes made by other processes, across a server outage",
    .timeLimit(.minutes(1)))
  func endToEnd() throws {
    let e2e = try EndToEnd(persistentRegistry: true)
    let tpns = e2e.tpns
    #expect(try tpns.run(["register", EndToEnd.token]).status == 0)

    let watch = try Self.startWatch(tpns, ["--debounce", "50", "--interval", "1"])
    defer { if watch.isRunning { watch.terminate() } }

    // Once the first holds the lock (its pid in the lock file), a second
    // watch of the same store is refused, naming the first.
    #expect(Self.holdsLock(watch, of: tpns.store))
    let second = try tpns.run(["watch"], timeout: .seconds(10))
    #expect(second.status == 75)
    #expect(second.stderr.contains("(pid \(watch.processIdentifier))"))

    func mapped() throws -> [String] { try e2e.server.mappedUIDs(udid: EndToEnd.token) }

    for index in 0..<5 {
      #expect(try tpns.run(["add", "WATCHED00000000000\(index)0", "--no-sync"]).status == 0)
    }
    #expect(try Self.eventually(within: .seconds(15)) { try e2e.replicaMatchesStore() })
    #expect(try mapped().count == 5)

    // The server goes away; two more are added; it comes back on the same database.
    e2e.server.emulator.stop()
    #expect(try tpns.run(["add", "WATCHED000000000005A", "--no-sync"]).status == 0)
    #expect(try tpns.run(["add", "WATCHED000000000006A", "--no-sync"]).status == 0)
    try e2e.server.restart()
    #expect(try Self.eventually(within: .seconds(20)) { try mapped().count == 7 })
    #expect(try e2e.replicaMatchesStore())

    // SIGTERM: exit 0, promptly.
    watch.terminate()
    let stopped = Self.eventually(within: .seconds(5)) { !watch.isRunning }
    #expect(stopped)
    if stopped { #expect(watch.terminationStatus == 0) }
  }
}
