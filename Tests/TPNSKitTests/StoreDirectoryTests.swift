import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// The store trusts only what no other user could have put on its way
/// (ssh's StrictModes): ``StoreDirectory`` and ``UntrustedReason``, through
/// the store's own operations.
@Suite struct StoreDirectoryTests {
  static let uid = "ABCDEFGHJKLMNPRSTUVW"
  /// `nobody`: the other user of the tests that need root to make one.
  static let otherUser: uid_t = 65534

  /// `path` as the kernel resolves it (`/tmp//x` is `/tmp/x`): how a refusal
  /// names a directory on the way.
  static func real(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }

  /// A store in `shared/tpns/` of a fresh directory, holding one UID; `shared`
  /// gets `mode` once the store is written.
  static func storeInShared(mode: mode_t) throws -> (TemporaryDirectory, Store) {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("shared/tpns/state.plist"))
    try store.update { $0.uids = [uid] }
    #expect(chmod(directory.file("shared"), mode) == 0)
    return (directory, store)
  }

  @Test(
    "a directory on the way that group or others may write, and not sticky, is refused",
    arguments: [0o777, 0o770, 0o757] as [mode_t])
  func writableDirectory(mode: mode_t) throws {
    let (directory, store) = try Self.storeInShared(mode: mode)
    let before = contents(of: store.path)
    let refusal = StoreError.untrusted(
      path: Self.real(directory.file("shared")), reason: .directoryWritable(mode: mode))
    #expect(throws: refusal) { try store.load() }
    #expect(throws: refusal) { try store.update { $0.uids = [] } }
    #expect(throws: refusal) { try store.lockForSending() }
    #expect(contents(of: store.path) == before)
    #expect(refusal.suggestion.hasPrefix("Run 'chmod go-w \(Self.real(directory.file("shared")))'"))
  }

  @Test(
    "a sticky directory on the way (as /tmp) and one only this user writes are trusted",
    arguments: [0o1777, 0o1770, 0o755, 0o700] as [mode_t])
  func trustedDirectory(mode: mode_t) throws {
    let (directory, store) = try Self.storeInShared(mode: mode)
    try store.update { $0.uids.append("0123456789ABCDEFGHJK") }
    #expect(try store.load().uids == [Self.uid, "0123456789ABCDEFGHJK"])
    #expect(permissions(of: directory.file("shared")) == mode & 0o777)
  }

  @Test(
    "a directory the store creates in a sticky directory is made and checked as any other",
    arguments: [0o1777] as [mode_t])
  func createdInSticky(mode: mode_t) throws {
    let directory = try TemporaryDirectory()
    #expect(chmod(directory.path, mode) == 0)
    let store = Store(path: directory.file("a/b/state.plist"))
    try store.update { $0.uids = [Self.uid] }
    #expect(permissions(of: directory.file("a")) == 0o700)
    #expect(permissions(of: directory.file("a/b")) == 0o700)
    #expect(try store.load().uids == [Self.uid])
  }

  @Test(
    "a store file that group or others may write is refused, and left as it was",
    arguments: [0o666, 0o620, 0o602] as [mode_t])
  func writableFile(mode: mode_t) throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    try store.update { $0.uids = [Self.uid] }
    #expect(chmod(store.path, mode) == 0)
    let before = contents(of: store.path)
    let refusal = StoreError.untrusted(path: store.path, reason: .fileWritable(mode: mode))
    #expect(throws: refusal) { try store.load() }
    #expect(throws: refusal) { try store.update { $0.uids = [] } }
    #expect(contents(of: store.path) == before)
    #expect(refusal.suggestion == "Run 'chmod go-w \(store.path)' (tpns writes its files 0600).")
  }

  @Test("a FIFO at the store's path is refused at once, not waited on")
  func fifo() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    #expect(mkfifo(path, 0o600) == 0)
    let outcome = LockedResult()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      outcome.set(Result { () throws(StoreError) in try Store(path: path).load() })
      done.signal()
    }
    // A reader stuck in open(2) is let go by a writer, so that a failure ends.
    if done.wait(timeout: .now() + 10) == .timedOut {
      let writer = open(path, O_WRONLY | O_NONBLOCK)
      close(writer)
      done.wait()
      Issue.record("load() waited on the FIFO")
    }
    let expected = StoreError.untrusted(path: path, reason: .notARegularFile(kind: "a FIFO"))
    #expect(throws: expected) { try outcome.value?.get() }
  }

  @Test(
    "a store file that belongs to another user is refused, and nothing is written",
    .enabled(if: geteuid() == 0))
  func fileOfAnotherUser() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    try store.update { $0.uids = [Self.uid] }
    #expect(chown(store.path, Self.otherUser, Self.otherUser) == 0)
    let before = contents(of: store.path)
    let refusal = StoreError.untrusted(path: store.path, reason: .fileOwner(uid: Self.otherUser))
    #expect(throws: refusal) { try store.load() }
    #expect(throws: refusal) { try store.update { $0.uids = [] } }
    #expect(contents(of: store.path) == before)
  }

  @Test(
    "a directory on the way that belongs to another user is refused",
    .enabled(if: geteuid() == 0))
  func directoryOfAnotherUser() throws {
    let (directory, store) = try Self.storeInShared(mode: 0o755)
    #expect(chown(directory.file("shared"), Self.otherUser, Self.otherUser) == 0)
    let refusal = StoreError.untrusted(
      path: Self.real(directory.file("shared")), reason: .directoryOwner(uid: Self.otherUser))
    #expect(throws: refusal) { try store.load() }
    #expect(throws: refusal) { try store.update { $0.uids = [] } }
  }

  @Test(
    "a link to a directory on the way is followed if this user owns it, refused if another does",
    .enabled(if: geteuid() == 0))
  func linkOnTheWay() throws {
    let directory = try TemporaryDirectory()
    let real = Store(path: directory.file("real/state.plist"))
    try real.update { $0.uids = [Self.uid] }
    #expect(symlink("real", directory.file("tpns")) == 0)
    let store = Store(path: directory.file("tpns/state.plist"))
    #expect(try store.load().uids == [Self.uid])
    #expect(lchown(directory.file("tpns"), Self.otherUser, Self.otherUser) == 0)
    let refusal = StoreError.untrusted(
      path: Self.real(directory.path) + "/tpns", reason: .linkOwner(uid: Self.otherUser))
    #expect(throws: refusal) { try store.load() }
    #expect(throws: refusal) { try store.update { $0.uids = [] } }
    #expect(try real.load().uids == [Self.uid])
  }

  @Test(
    "a lock file that belongs to another user is refused at once, not waited on",
    .enabled(if: geteuid() == 0),
    arguments: [".lock", ".sync.lock", ".watch.lock"])
  func lockOfAnotherUser(suffix: String) throws {
    let directory = try TemporaryDirectory()
    // Long enough that a wait would be the other error, and a slow test.
    let store = Store(path: directory.file("state.plist"), lockTimeout: .seconds(30))
    try store.update { $0.uids = [Self.uid] }
    let lockPath = store.path + suffix
    let holder = open(lockPath, O_RDWR | O_CREAT, 0o644)
    defer { close(holder) }
    #expect(fchown(holder, Self.otherUser, Self.otherUser) == 0)
    #expect(flock(holder, LOCK_EX) == 0)
    let refusal = StoreError.untrusted(path: lockPath, reason: .lockOwner(uid: Self.otherUser))
    let started = ContinuousClock.now
    switch suffix {
    case ".lock": #expect(throws: refusal) { try store.update { $0.uids = [] } }
    case ".sync.lock": #expect(throws: refusal) { try store.lockForSending() }
    default:
      #expect(throws: refusal) { try store.openCompanion(suffix, creatingDirectories: false) }
    }
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(try store.load().uids == [Self.uid])
  }

  @Test("a lock file that is a FIFO or a link is refused, not opened through")
  func lockNotAFile() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    #expect(mkfifo(store.path + ".lock", 0o600) == 0)
    #expect(
      throws: StoreError.untrusted(
        path: store.path + ".lock", reason: .notARegularFile(kind: "a FIFO"))
    ) {
      try store.update { $0.uids = [Self.uid] }
    }
    #expect(symlink(directory.file("elsewhere"), store.path + ".sync.lock") == 0)
    #expect(
      throws: StoreError.untrusted(
        path: store.path + ".sync.lock", reason: .notARegularFile(kind: "a symbolic link"))
    ) {
      try store.lockForSending()
    }
    #expect(!FileManager.default.fileExists(atPath: directory.file("elsewhere")))
  }

  @Test("a relative store path is checked from the working directory's way")
  func relativePath() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    try store.update { $0.uids = [Self.uid] }
    let relative = String(repeating: "../", count: 32) + String(store.path.drop { $0 == "/" })
    #expect(try Store(path: relative).load().uids == [Self.uid])
  }
}

/// What a thread's load returned, for the test that waits for it.
private final class LockedResult: @unchecked Sendable {
  // @unchecked: set once by the loading thread before it signals, read after the wait.
  private(set) var value: Result<StoreContents, StoreError>?
  func set(_ result: Result<StoreContents, StoreError>) { value = result }
}
