import Foundation
import Locking
import TPNSEmulator
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// Runs the built `tpns` binary, as a user would, with its own store.
struct TPNSProcess: Sendable {
  let store: String
  var server: String

  /// The build directory: the test runner lives beside the executables.
  static let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("tpns").path

  struct Result: Equatable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// `stderr` without its `Warning: ` lines (a token given as an argument
    /// is one), for a test of what else is said there.
    var stderrWithoutWarnings: String {
      stderr.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.hasPrefix("Warning: ") }.joined(separator: "\n")
    }
  }

  /// Runs `tpns` to its end. Output goes to files, not pipes: a pipe's end
  /// inherited by a long-lived process another test spawned at the same
  /// moment (a `tpns watch`) would keep its reader waiting for EOF forever.
  /// `environment` is added to the tests' own (`TPNS_TOKEN`, say); `input`,
  /// if given, is standard input (else `/dev/null`).
  func run(
    _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
    timeout: Duration = .seconds(120), executable: String = Self.binary
  ) throws -> Result {
    let directory = try TemporaryDirectory()
    let outPath = directory.file("stdout")
    let errPath = directory.file("stderr")
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    defer {
      try? output.close()
      try? errors.close()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = Self.environment(store: store, server: server)
      .merging(environment) { $1 }
    process.standardOutput = output
    process.standardError = errors
    if let input {
      let inputPath = directory.file("stdin")
      // Only this user's, as a token file read on standard input must be.
      _ = FileManager.default.createFile(
        atPath: inputPath, contents: Data(input.utf8), attributes: [.posixPermissions: 0o600])
      process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    try process.run()
    // A command that outlives its limit is a failure, not a hung suite.
    let deadline = ContinuousClock.now + timeout
    while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      Issue.record("tpns \(arguments.joined(separator: " ")) ran longer than \(timeout)")
    }
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: contents(of: outPath) ?? Data(), as: UTF8.self),
      stderr: String(decoding: contents(of: errPath) ?? Data(), as: UTF8.self))
  }

  /// Runs `script` with `/bin/sh -c`, `$0` being the `tpns` binary (to set a
  /// limit with `ulimit` first, say).
  func run(viaShell script: String) throws -> Result {
    try run(["-c", script, Self.binary], executable: "/bin/sh")
  }

  /// The environment `tpns` runs with in the tests.
  static func environment(store: String, server: String) -> [String: String] {
    ["TPNS_STORE": store, "TPNS_SERVER": server, "HOME": "/nonexistent", "PATH": "/usr/bin:/bin"]
  }
}

/// An emulator, a fresh store and the `tpns` binary pointed at both.
final class EndToEnd {
  let server: RunningEmulator
  let directory: TemporaryDirectory
  let tpns: TPNSProcess
  static let token = String(repeating: "0f", count: 32)

  /// With `persistentRegistry`, the emulator's registry is a file in `directory`,
  /// so that it survives `server.emulator.stop()` and `server.restart()`;
  /// `strict: false` runs the emulator as `tpns-server` does by default.
  init(persistentRegistry: Bool = false, strict: Bool = true) throws {
    directory = try TemporaryDirectory()
    server = try RunningEmulator(
      database: persistentRegistry ? directory.file("registry.db") : nil, strict: strict)
    tpns = TPNSProcess(store: directory.file("state.plist"), server: server.server)
  }

  var store: Store { Store(path: tpns.store) }

  /// The UIDs the emulator maps to this phone, and those the store holds.
  func replicaMatchesStore() throws -> Bool {
    try server.mappedUIDs(udid: Self.token).sorted() == store.load().uids.sorted()
  }
}

@Suite struct CommandLineTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"

  @Test(
    "the whole flow: each command's output and status, the registry equal to the store after every step"
  )
  func flow() throws {
    let e2e = try EndToEnd()
    let server = e2e.server.server
    var result = try e2e.tpns.run(["add", Self.a])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "added \(Self.a)\nstored 1 UID; it is sent once a token is registered (tpns register --token-file FILE, or TPNS_TOKEN)\n"
    )
    #expect(try e2e.server.requests().isEmpty)

    result = try e2e.tpns.run(["register"], environment: ["TPNS_TOKEN": EndToEnd.token])
    #expect(
      result
        == .init(
          status: 0, stdout: "registered …0f0f0f at \(server)\nsynced 1 UID to \(server)\n",
          stderr: ""))
    #expect(try e2e.replicaMatchesStore())

    result = try e2e.tpns.run(["add", Self.b.lowercased(), Self.a])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "added \(Self.b)\n\(Self.a) is already in the list\nsynced 2 UIDs to \(server)\n")
    #expect(try e2e.replicaMatchesStore())

    result = try e2e.tpns.run(["list"])
    #expect(result == .init(status: 0, stdout: "0  \(Self.a)\n1  \(Self.b)\n", stderr: ""))

    result = try e2e.tpns.run(["remove", "0"])
    #expect(result.stdout == "removed 0  \(Self.a)\nsynced 1 UID to \(server)\n")
    #expect(try e2e.replicaMatchesStore())

    result = try e2e.tpns.run(["event", Self.b, "--message", "motion"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("sent event"))
    let notifications =
      try e2e.server.inspect("notifications?udid=\(EndToEnd.token)")["notifications"]
      as? [[String: Any]]
    #expect(notifications?.count == 1)
    #expect(notifications?.first?["msg"] as? String == "motion")

    result = try e2e.tpns.run(["status"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("registered  yes"))
    #expect(result.stdout.contains("pending     no, the server has the list"))
  }

  @Test("server down: exit 69, the change stored and pending; server back and sync: in sync")
  func serverDown() throws {
    let e2e = try EndToEnd(persistentRegistry: true)
    let tpns = e2e.tpns
    #expect(try tpns.run(["register", EndToEnd.token]).status == 0)
    e2e.server.emulator.stop()

    var result = try tpns.run(["add", Self.a])
    #expect(result.status == 69)
    #expect(result.stdout == "added \(Self.a)\n")
    #expect(result.stderr.contains("Error: mapsync failed: cannot reach"))
    #expect(result.stderr.contains("The change is stored and pending; run 'tpns sync'"))
    #expect(try e2e.store.load().uids == [Self.a])
    #expect(try tpns.run(["status"]).stdout.contains("pending     yes: 1 to add, 0 to remove"))

    try e2e.server.restart()
    result = try tpns.run(["sync"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try tpns.run(["status"]).stdout.contains("pending     no, the server has the list"))
  }

  @Test("server down at register: the token is stored; sync registers it, then sends the list")
  func syncRegistersStoredToken() throws {
    let directory = try TemporaryDirectory()
    let down = try SilentListener(listening: false)
    let tpns = TPNSProcess(
      store: directory.file("state.plist"), server: "http://127.0.0.1:\(down.port)/tpns")
    var result = try tpns.run(["register", EndToEnd.token])
    #expect(result.status == 69)
    #expect(
      result.stderr.contains(
        "The change is stored and pending (this server has not acknowledged the registration); "
          + "run 'tpns sync' once it answers."))
    #expect(try tpns.run(["add", "--no-sync", Self.a]).status == 0)

    let server = try RunningEmulator()
    result = try tpns.run(["sync", "--server", server.server])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("registered …0f0f0f at \(server.server)\nsynced 1 UID"))
    #expect(
      try server.requests().map(\.raw).map { $0.prefix(11) } == ["cmd=client&", "cmd=mapsync"])
    #expect(try server.mappedUIDs(udid: EndToEnd.token) == [Self.a])
  }

  @Test("--json prints one document even when the input is refused before anything runs")
  func jsonOnBadInput() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["add", "BAD&", "--json"])
    #expect(result.status == 65)
    let document =
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(document?["ok"] as? Bool == false)
    #expect(document?["exit_code"] as? Int == 65)
    #expect((document?["errors"] as? [String])?.first?.hasPrefix("invalid UID 'BAD&'") == true)
  }

  @Test("processes adding at once: the server ends with the stored list, and nothing is pending")
  func concurrentProcesses() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    let uids = (0..<6).map { "CONCURRENT\(String(format: "%010d", $0))" }
    let results = LockedState<[Int32]>([])
    let tpns = e2e.tpns
    DispatchQueue.concurrentPerform(iterations: uids.count) { index in
      let status = (try? tpns.run(["add", uids[index]]).status) ?? -1
      results.withLock { $0.append(status) }
    }
    #expect(results.value == Array(repeating: 0, count: uids.count))
    #expect(Set(try e2e.store.load().uids) == Set(uids))
    #expect(try e2e.replicaMatchesStore())
    #expect(try e2e.tpns.run(["status"]).stdout.contains("pending     no"))
  }

  @Test(
    "bad input exits 65 (or 64 for usage), sends nothing and leaves the store byte-identical",
    arguments: [
      (["add", "ABC"], Int32(65)),
      (["add", Self.a, "ABCDEFGHJKLMNPRSTUV&"], 65),
      (["add", "ABCDEFGHJKLMNPRSTUV\n"], 65),
      (["add", "ABCDEFGHJKLMNPRSTU\u{00C9}"], 65),
      (["register", "1234"], 65),
      (["register", "{length = 32, bytes = 0x0f0f0f0f 0f0f0f0f ... 0f0f0f0f }"], 65),
      (["remove", "7"], 65),
      (["remove", "x"], 65),
      (["remove", "-1"], 65),
      (["remove", "--uid", "ZZZZZZZZZZZZZZZZZZZZ"], 65),
      (["event", "short"], 65),
      (["add"], 64),
      (["frobnicate"], 64),
      (["add", Self.a, "--timeout", "-1"], 64),
      (["add", Self.a, "--server", "ftp://x"], 64),
      (["add", Self.a, "--server", "http://127.0.0.1/\ntpns"], 64),
      (["register", "--os", "android", "--udid", "phone&cmd=x", "abcdef"], 64),
      (["register", EndToEnd.token, "--appid", "a b"], 64),
    ] as [([String], Int32)])
  func badInput(arguments: [String], status: Int32) throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["add", Self.b]).status == 0)
    let before = contents(of: e2e.tpns.store)
    let requestsBefore = try e2e.server.requests().count
    let result = try e2e.tpns.run(arguments)
    #expect(result.status == status, "\(result.stderr)")
    #expect(result.stderrWithoutWarnings.hasPrefix("Error: "))
    #expect(try e2e.server.requests().count == requestsBefore)
    #expect(contents(of: e2e.tpns.store) == before)
  }

  @Test("watch refuses a store that does not parse at the start: exit 65 naming it, file untouched")
  func watchCorruptStore() throws {
    let e2e = try EndToEnd()
    let garbage = Data([0x00, 0xFF, 0x3C, 0x70, 0x6C])
    try garbage.write(to: URL(fileURLWithPath: e2e.tpns.store))
    let result = try e2e.tpns.run(["watch"], timeout: .seconds(30))
    #expect(result.status == 65)
    #expect(result.stderr.contains("Error: the store \(e2e.tpns.store) cannot be read"))
    #expect(contents(of: e2e.tpns.store) == garbage)
  }

  @Test("a file-size limit is exit 73, not SIGXFSZ: the store unchanged, no temp file left")
  func fileSizeLimit() throws {
    let e2e = try EndToEnd()
    let many = (0..<60).map { String(format: "LIMIT%015d", $0) }
    #expect(try e2e.tpns.run(["add", "--no-sync"] + many).status == 0)
    let before = try #require(contents(of: e2e.tpns.store))
    #expect(before.count > 2048)
    // 2 blocks (1 KiB for dash's 512-byte blocks): room for the error, not the store.
    let shell = TPNSProcess(store: e2e.tpns.store, server: e2e.tpns.server)
    let result = try shell.run(
      viaShell: "ulimit -f 2; exec \"$0\" add --no-sync ABCDEFGHJKLMNPRSTUVW")
    #expect(result.status == 73, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("Error: cannot write "))
    #expect(result.stderr.contains("File too large"))
    #expect(contents(of: e2e.tpns.store) == before)
    let left = try FileManager.default.contentsOfDirectory(atPath: e2e.directory.path)
    #expect(!left.contains { $0.contains(".tmp-") }, "\(left)")
  }

  @Test(
    "with UIDs but no token stored, the next step named gives the token safely, never on the command line",
    arguments: [
      ["add", CommandLineTests.a], ["add", CommandLineTests.a, "--json"], ["status"],
      ["status", "--json"],
    ])
  func noTokenNextStep(arguments: [String]) throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["add", Self.b]).status == 0)
    let result = try e2e.tpns.run(arguments)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("tpns register --token-file FILE"), "\(result.stdout)")
    #expect(!result.stdout.contains("<token>"), "\(result.stdout)")
    if arguments == ["status"] {
      #expect(
        result.stdout.contains("none (tpns register --token-file FILE, or TPNS_TOKEN)\n"),
        "\(result.stdout)")
    }
  }
}
