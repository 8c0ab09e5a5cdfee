import Foundation
import TPNSTestSupport
import Testing

/// What the commands do with a store another user could have tampered with,
/// or one built to crash the reader: refuse it, with the exit status and a
/// message that names the path and the fix, at once.
@Suite struct UntrustedStoreTests {
  static let uid = "ABCDEFGHJKLMNPRSTUVW"
  /// A server nothing listens on: these commands must fail before any request.
  static let server = "http://127.0.0.1:1/tpns"

  @Test(
    "a store in a directory others may write is refused: exit 73 naming the directory and the fix",
    .timeLimit(.minutes(1)), arguments: [["list"], ["add", "--no-sync", uid], ["watch"]])
  func writableDirectory(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    // Named as the kernel resolves it (`/tmp//x` is `/tmp/x`).
    let shared = URL(fileURLWithPath: directory.file("shared")).standardizedFileURL.path
    let tpns = TPNSProcess(store: directory.file("shared/state.plist"), server: Self.server)
    #expect(try tpns.run(["add", "--no-sync", "0123456789ABCDEFGHJK"]).status == 0)
    let before = contents(of: tpns.store)
    #expect(chmod(shared, 0o777) == 0)
    let result = try tpns.run(arguments, timeout: .seconds(20))
    #expect(result.status == 73)
    #expect(
      result.stderr.contains(
        "Error: the directory \(shared) on the way to the store is writable by group or others "
          + "(mode 0777) and not sticky: anyone who can write it could swap the store\n"))
    #expect(
      result.stderr.contains(
        "Run 'chmod go-w \(shared)' (or 'chmod +t' for a shared directory such as /tmp), "
          + "or keep the store in a directory only you can write (--store).\n"))
    #expect(contents(of: tpns.store) == before)
  }

  @Test(
    "a FIFO at the store's path is refused at once (exit 73), not waited on",
    .timeLimit(.minutes(1)), arguments: [["list"], ["status"], ["watch"]])
  func fifo(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    #expect(mkfifo(tpns.store, 0o600) == 0)
    // A tpns stuck opening it (SIGTERM does not end that) is let go by a
    // writer later, so that a failure ends instead of hanging the suite.
    let fifo = tpns.store
    DispatchQueue.global().asyncAfter(deadline: .now() + 15) {
      close(open(fifo, O_WRONLY | O_NONBLOCK))
    }
    let result = try tpns.run(arguments, timeout: .seconds(10))
    #expect(result.status == 73)
    #expect(
      result.stderr.contains(
        "Error: \(tpns.store) is a FIFO, not a regular file; refusing to open it\n"))
  }

  @Test(
    "a store nested 200,000 deep is exit 65 naming the limit, for list and watch, not a SIGSEGV",
    .timeLimit(.minutes(1)), arguments: [["list"], ["watch"]])
  func nestedTooDeep(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    let depth = 200_000
    let bytes = Data(
      ("<plist version=\"1.0\"><dict><key>UIDs</key>" + String(repeating: "<array>", count: depth)
        + String(repeating: "</array>", count: depth) + "</dict></plist>").utf8)
    try bytes.write(to: URL(fileURLWithPath: tpns.store))
    let result = try tpns.run(arguments, timeout: .seconds(20))
    #expect(result.status == 65)
    #expect(
      result.stderr.contains(
        "Error: the store \(tpns.store) cannot be read: its elements nest deeper than 64 levels "
          + "(line 1); a store nests 6, and tpns reads at most 64\n"))
    #expect(contents(of: tpns.store) == bytes)
  }

  @Test(
    "a watch lock another user made and holds is refused (exit 73), not taken for a watch (75)",
    .timeLimit(.minutes(1)), .enabled(if: geteuid() == 0))
  func watchLockOfAnotherUser() throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: Self.server)
    #expect(try tpns.run(["add", "--no-sync", Self.uid]).status == 0)
    let lockPath = tpns.store + ".watch.lock"
    let holder = open(lockPath, O_RDWR | O_CREAT, 0o644)
    defer { close(holder) }
    #expect(fchown(holder, 65534, 65534) == 0)
    #expect(flock(holder, LOCK_EX) == 0)
    let result = try tpns.run(["watch"], timeout: .seconds(20))
    #expect(result.status == 73)
    #expect(
      result.stderr.contains(
        "Error: the lock file \(lockPath) belongs to another user (nobody, uid 65534), who could "
          + "hold it to stop tpns; refusing to use it\n"))
    #expect(
      result.stderr.contains(
        "Remove \(lockPath) if it is not yours, or keep the store in a directory only you can "
          + "write (--store); if it is yours, chown it to yourself.\n"))
  }
}
