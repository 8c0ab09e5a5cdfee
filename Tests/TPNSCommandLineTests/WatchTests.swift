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

  /// Starts `tpns watch` with `arguments` on `tpns`'s store and server, in the
  /// background; its standard output goes to the file `output`, if given.
  static func startWatch(
    _ tpns: TPNSProcess, _ arguments: [String] = [], output: String? = nil,
    environment: [String: String] = [:]
  ) throws -> Process {
    let watch = Process()
    watch.executableURL = URL(fileURLWithPath: TPNSProcess.binary)
    watch.arguments = ["watch"] + arguments
    watch.environment = TPNSProcess.environment(store: tpns.store, server: tpns.server)
      .merging(environment) { $1 }
    // Not a pipe: nobody reads it, and a pipe end it inherited must not keep a reader waiting.
    if let output {
      _ = FileManager.default.createFile(atPath: output, contents: nil)
      watch.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    } else {
      watch.standardOutput = FileHandle.nullDevice
    }
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

  /// Only inotify can sync in the tests below: the periodic check is an hour away.
  static let inotifyOnly = ["--debounce", "50", "--interval", "3600"]

  /// A valid UID numbered `index`.
  static func uid(_ prefix: String, _ index: Int) -> String {
    let digits = String(index)
    return prefix + String(repeating: "0", count: 20 - prefix.count - digits.count) + digits
  }

  /// Points the (new or existing) link at `path` to `destination`, by rename.
  static func pointLink(_ path: String, to destination: String) throws {
    let temporary = path + ".new"
    try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: destination)
    #expect(rename(temporary, path) == 0)
  }

  /// A copy of the store of `tpns` at `path`, with `uid` added there (not synced).
  static func copy(_ tpns: TPNSProcess, to path: String, adding uid: String) throws -> TPNSProcess {
    try FileManager.default.createDirectory(
      atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
      withIntermediateDirectories: true)
    // Read through one descriptor: the watch may replace the store (a rename) as it
    // records an acknowledgement, and FileManager.copyItem takes the size from a
    // stat of the path before it opens it, which copies a new file cut short.
    try Data(contentsOf: URL(fileURLWithPath: tpns.store)).write(to: URL(fileURLWithPath: path))
    #expect(chmod(path, 0o600) == 0)
    let copy = TPNSProcess(store: path, server: tpns.server)
    #expect(try copy.run(["add", "--no-sync", uid]).status == 0)
    return copy
  }

  /// Stops `watch` with `signal` and returns whether it exited 0 within 5 s.
  static func stop(_ watch: Process, with signal: Int32) -> Bool {
    kill(watch.processIdentifier, signal)
    guard eventually(within: .seconds(5), { !watch.isRunning }) else { return false }
    return watch.terminationStatus == 0
  }

  @Test("--max-delay is in the help and validated like --debounce", .timeLimit(.minutes(1)))
  func maxDelayOption() throws {
    let tpns = TPNSProcess(store: "/nonexistent/state.plist", server: "http://127.0.0.1:1/tpns")
    let help = try tpns.run(["watch", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("--max-delay <ms>"))
    let invalid = try tpns.run(["watch", "--max-delay", "600001"])
    #expect(invalid.status == 64)
    #expect(invalid.stderr.hasPrefix("Error: The value '600001' is invalid for '--max-delay <ms>'"))
  }

  @Test(
    "a store that is a link to a file in another directory: changes through the link, and a re-pointed link, are synced",
    .timeLimit(.minutes(1)))
  func linkedStore() throws {
    let e2e = try EndToEnd()
    let real = TPNSProcess(store: e2e.directory.file("real/state.plist"), server: e2e.server.server)
    #expect(try real.run(["register", EndToEnd.token]).status == 0)
    try Self.pointLink(e2e.tpns.store, to: real.store)
    let watch = try Self.startWatch(e2e.tpns, Self.inotifyOnly)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(Self.holdsLock(watch, of: real.store))

    #expect(try e2e.tpns.run(["add", "--no-sync", Self.uid("LINK", 1)]).status == 0)
    #expect(try Self.eventually(within: .seconds(5)) { try e2e.replicaMatchesStore() })
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.uid("LINK", 1)])

    // The link now points at another copy of the store, which holds one more UID.
    let other = try Self.copy(
      real, to: e2e.directory.file("other/state.plist"), adding: Self.uid("LINK", 2))
    try Self.pointLink(e2e.tpns.store, to: other.store)
    #expect(
      try Self.eventually(within: .seconds(5)) {
        try e2e.server.mappedUIDs(udid: EndToEnd.token).count == 2
      })
    #expect(try e2e.replicaMatchesStore())
    // And the watch lock moved with it.
    #expect(Self.holdsLock(watch, of: other.store))
    #expect(Self.stop(watch, with: SIGTERM))
  }

  @Test(
    "the store's directory replaced by mv, then deleted and restored: both synced, and the lock follows",
    .timeLimit(.minutes(1)))
  func replacedDirectory() throws {
    let e2e = try EndToEnd()
    let tpns = TPNSProcess(
      store: e2e.directory.file("config/state.plist"), server: e2e.server.server)
    func mapped() throws -> [String] { try e2e.server.mappedUIDs(udid: EndToEnd.token).sorted() }
    #expect(try tpns.run(["register", EndToEnd.token]).status == 0)
    let watch = try Self.startWatch(tpns, Self.inotifyOnly)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(Self.holdsLock(watch, of: tpns.store))

    // A deploy: `mv config config.old && mv new config`, the new store holding one more UID.
    _ = try Self.copy(
      tpns, to: e2e.directory.file("new/state.plist"), adding: Self.uid("DEPLOY", 1))
    #expect(rename(e2e.directory.file("config"), e2e.directory.file("config.old")) == 0)
    #expect(rename(e2e.directory.file("new"), e2e.directory.file("config")) == 0)
    #expect(try Self.eventually(within: .seconds(5)) { try mapped() == [Self.uid("DEPLOY", 1)] })

    // The lock is held again in the new directory: a second watch is refused.
    #expect(Self.holdsLock(watch, of: tpns.store))
    let second = try tpns.run(["watch"], timeout: .seconds(10))
    #expect(second.status == 75)
    #expect(second.stderr.contains("(pid \(watch.processIdentifier))"))

    // A restore: the directory is deleted, then comes back with one more UID.
    let saved = try Self.copy(
      tpns, to: e2e.directory.file("saved/state.plist"), adding: Self.uid("DEPLOY", 2))
    try FileManager.default.removeItem(atPath: e2e.directory.file("config"))
    #expect(
      rename(
        URL(fileURLWithPath: saved.store).deletingLastPathComponent().path,
        e2e.directory.file("config")) == 0)
    #expect(
      try Self.eventually(within: .seconds(5)) {
        try mapped() == [Self.uid("DEPLOY", 1), Self.uid("DEPLOY", 2)]
      })
    #expect(Self.holdsLock(watch, of: tpns.store))
    #expect(Self.stop(watch, with: SIGTERM))
  }

  @Test(
    "changes every 80 ms that never pause for --debounce 300 are synced before they stop (--max-delay 1000)",
    .timeLimit(.minutes(1)))
  func maxDelay() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    let watch = try Self.startWatch(
      e2e.tpns, ["--debounce", "300", "--max-delay", "1000", "--interval", "3600"])
    defer { if watch.isRunning { watch.terminate() } }
    #expect(Self.holdsLock(watch, of: e2e.tpns.store))

    var mappedDuringAdds: [String] = []
    let end = ContinuousClock.now + .seconds(3)
    var index = 0
    while ContinuousClock.now < end {
      // A pace, not a wait for the watch: one add every 80 ms.
      let next = ContinuousClock.now + .milliseconds(80)
      #expect(try e2e.tpns.run(["add", "--no-sync", Self.uid("BURST", index)]).status == 0)
      index += 1
      mappedDuringAdds = try e2e.server.mappedUIDs(udid: EndToEnd.token)
      if next > ContinuousClock.now {
        usleep(UInt32((next - ContinuousClock.now) / .microseconds(1)))
      }
    }
    #expect(!mappedDuringAdds.isEmpty, "nothing synced during \(index) adds")
    #expect(try Self.eventually(within: .seconds(5)) { try e2e.replicaMatchesStore() })
    #expect(Self.stop(watch, with: SIGTERM))
  }

  @Test(
    "an inotify queue overflow while the watch is stopped: the change made meanwhile is synced",
    .timeLimit(.minutes(2)))
  func queueOverflow() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    let watch = try Self.startWatch(e2e.tpns, Self.inotifyOnly)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(Self.holdsLock(watch, of: e2e.tpns.store))

    // Each file is two events at least (create, delete): enough to fill the queue.
    let limit = String(
      decoding: contents(of: "/proc/sys/fs/inotify/max_queued_events") ?? Data(), as: UTF8.self)
    let files = max(
      7000, (Int(limit.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 16384) / 2 + 1000)
    #expect(watch.suspend())
    for index in 0..<files {
      let path = e2e.directory.file("churn-\(index)")
      close(open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
      unlink(path)
    }
    // Its events come after the queue is full: only the overflow tells.
    #expect(try e2e.tpns.run(["add", "--no-sync", Self.uid("FLOOD", 1)]).status == 0)
    #expect(watch.resume())
    #expect(
      try Self.eventually(within: .seconds(10)) {
        try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.uid("FLOOD", 1)]
      })
    #expect(Self.stop(watch, with: SIGTERM))
  }

  @Test(
    "SIGHUP re-reads the store and keeps watching: a change inotify cannot see is synced; SIGINT still exits 0",
    .timeLimit(.minutes(1)))
  func reload() throws {
    let e2e = try EndToEnd()
    let elsewhere = try TemporaryDirectory()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    let output = elsewhere.file("watch.out")
    let watch = try Self.startWatch(e2e.tpns, Self.inotifyOnly, output: output)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(Self.holdsLock(watch, of: e2e.tpns.store))

    // Written in place through a hard link in another directory: no event
    // reaches the watch on the store's directory.
    let edited = try Self.copy(
      e2e.tpns, to: elsewhere.file("edit/state.plist"), adding: Self.uid("RELOAD", 1))
    #expect(link(e2e.tpns.store, elsewhere.file("alias")) == 0)
    let alias = try #require(FileHandle(forWritingAtPath: elsewhere.file("alias")))
    try alias.truncate(atOffset: 0)
    try alias.write(contentsOf: contents(of: edited.store) ?? Data())
    try alias.close()

    #expect(kill(watch.processIdentifier, SIGHUP) == 0)
    #expect(
      try Self.eventually(within: .seconds(5)) {
        try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.uid("RELOAD", 1)]
      })
    // The registry has the list a moment before the watch prints that it does.
    // Each line starts with its time: `2026-12-01T05:14:00Z `.
    func lines() -> [String] {
      String(decoding: contents(of: output) ?? Data(), as: UTF8.self).split(separator: "\n")
        .map { String($0.drop { $0 != " " }.dropFirst()) }
    }
    #expect(Self.eventually(within: .seconds(5)) { lines().contains { $0.hasPrefix("synced") } })
    #expect(watch.isRunning)
    let reloading = lines().firstIndex(of: "reloading: re-reading \(e2e.tpns.store)")
    let synced = lines().firstIndex { $0.hasPrefix("synced 1 UID") }
    #expect(reloading != nil && synced != nil && reloading! < synced!, "\(lines())")
    #expect(Self.stop(watch, with: SIGINT))
  }

  /// The lines of a watch's output file, each without its leading time.
  static func lines(of output: String) -> [String] {
    String(decoding: contents(of: output) ?? Data(), as: UTF8.self).split(separator: "\n")
      .map { String($0.drop { $0 != " " }.dropFirst()) }
  }

  @Test(
    "after a sync gave up its retries, SIGHUP sends what is pending at once, not at the next --interval",
    .timeLimit(.minutes(1)))
  func reloadAfterGivingUp() throws {
    let e2e = try EndToEnd()
    let elsewhere = try TemporaryDirectory()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    let uid = Self.uid("GAVEUP", 1)
    #expect(try e2e.tpns.run(["add", "--no-sync", uid]).status == 0)
    try e2e.server.armFault(status: 503, count: 3, retryAfter: 0)
    let output = elsewhere.file("watch.out")
    let watch = try Self.startWatch(e2e.tpns, Self.inotifyOnly, output: output)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(
      Self.eventually(within: .seconds(20)) {
        Self.lines(of: output).contains { $0.hasPrefix("failed") }
      }, "\(Self.lines(of: output))")
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [])

    #expect(kill(watch.processIdentifier, SIGHUP) == 0)
    #expect(
      try Self.eventually(within: .seconds(5)) {
        try e2e.server.mappedUIDs(udid: EndToEnd.token) == [uid]
      }, "\(Self.lines(of: output))")
    #expect(Self.stop(watch, with: SIGTERM))
  }

  @Test(
    "after a sync, SIGTERM and SIGINT end the watch promptly (within half a second), exit 0",
    .timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
  func promptStopAfterSync(signal: Int32) throws {
    let e2e = try EndToEnd()
    let elsewhere = try TemporaryDirectory()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    let output = elsewhere.file("watch.out")
    let watch = try Self.startWatch(e2e.tpns, Self.inotifyOnly, output: output)
    defer { if watch.isRunning { watch.terminate() } }
    #expect(Self.holdsLock(watch, of: e2e.tpns.store))
    #expect(try e2e.tpns.run(["add", "--no-sync", Self.uid("PROMPT", 1)]).status == 0)
    #expect(
      Self.eventually(within: .seconds(10)) {
        Self.lines(of: output).contains { $0.hasPrefix("synced") }
      })
    let sent = ContinuousClock.now
    kill(watch.processIdentifier, signal)
    let stopped = Self.eventually(within: .seconds(5)) { !watch.isRunning }
    let took = ContinuousClock.now - sent
    #expect(stopped)
    #expect(took < .milliseconds(500), "the watch took \(took) to stop")
    if stopped { #expect(watch.terminationStatus == 0) }
  }
}
