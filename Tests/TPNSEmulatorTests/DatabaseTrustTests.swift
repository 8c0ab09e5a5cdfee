import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSEmulator

/// `--db` over files another user planted (a `0666` database and its `-wal` in a
/// shared directory) let that user read every token: an existing database, its
/// companions and its directory must be this user's, and writable by no one else.
@Suite("DatabaseTrust: another user's database files are refused")
struct DatabaseTrustTests {
  /// The `nobody` user, who owns the planted files.
  static let nobody: uid_t = 65534

  /// Starts an emulator on `path` and returns its refusal, nil if it started.
  static func refusal(_ path: String) -> EmulatorError? {
    let emulator = Emulator()
    defer { emulator.stop() }
    do {
      try emulator.start(port: 0, database: path)
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "a database file writable by group or others is refused, naming it; one only readable is used",
    arguments: [
      ("", 0o666, false), ("", 0o620, false), ("", 0o602, false), ("-wal", 0o666, false),
      ("-shm", 0o646, false), ("-journal", 0o660, false), ("", 0o600, true), ("", 0o640, true),
      ("", 0o644, true), ("-wal", 0o600, true),
    ] as [(String, mode_t, Bool)])
  func modes(suffix: String, mode: mode_t, isUsed: Bool) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry.sqlite")
    try TestEmulator(database: path).registerIOS()
    if !FileManager.default.fileExists(atPath: path + suffix) {
      #expect(FileManager.default.createFile(atPath: path + suffix, contents: nil))
    }
    #expect(chmod(path + suffix, mode) == 0)
    let refusal = Self.refusal(path)
    #expect((refusal == nil) == isUsed, "\(refusal.map(String.init(describing:)) ?? "used")")
    if case .untrustedDatabase(let refused, let reason, let fix) = refusal {
      #expect(refused == path + suffix)
      #expect(reason.contains("is writable by group or others (mode 0\(String(mode, radix: 8)))"))
      #expect(fix == "Run 'chmod 600 \(path + suffix)' (tpns-server creates its files 0600).")
    }
  }

  @Test(
    "a database or companion owned by another user is refused, and left as it is",
    .enabled(if: geteuid() == 0, "needs root to give a file to another user"),
    arguments: ["", "-wal", "-shm", "-journal"])
  func owner(suffix: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry.sqlite")
    try TestEmulator(database: path).registerIOS()
    if !FileManager.default.fileExists(atPath: path + suffix) {
      #expect(FileManager.default.createFile(atPath: path + suffix, contents: nil))
    }
    #expect(chmod(path + suffix, 0o600) == 0)
    #expect(chown(path + suffix, Self.nobody, Self.nobody) == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    guard case .untrustedDatabase(let refused, let reason, _) = Self.refusal(path) else {
      Issue.record("not refused")
      return
    }
    #expect(refused == path + suffix)
    #expect(reason.contains("belongs to another user (nobody, uid 65534)"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test(
    "a directory writable by others is refused unless sticky; another user's is refused",
    .enabled(if: geteuid() == 0, "needs root to give a directory to another user"),
    arguments: [
      (0o777, false, false), (0o775, false, false), (0o1777, false, true), (0o755, false, true),
      (0o755, true, false),
    ] as [(mode_t, Bool, Bool)])
  func directory(mode: mode_t, isNobodys: Bool, isUsed: Bool) throws {
    let directory = try TemporaryDirectory()
    let shared = directory.file("shared")
    #expect(mkdir(shared, 0o700) == 0)
    #expect(chmod(shared, mode) == 0)
    if isNobodys { #expect(chown(shared, Self.nobody, Self.nobody) == 0) }
    let refusal = Self.refusal(shared + "/registry.sqlite")
    #expect((refusal == nil) == isUsed)
    if case .untrustedDatabase(let refused, _, _) = refusal { #expect(refused == shared) }
  }

  @Test(
    "a link to the database owned by another user is not followed",
    .enabled(if: geteuid() == 0, "needs root to give a link to another user"))
  func link() throws {
    let directory = try TemporaryDirectory()
    let target = directory.file("target.sqlite")
    let link = directory.file("registry.sqlite")
    try TestEmulator(database: target).registerIOS()
    #expect(symlink(target, link) == 0)
    #expect(lchown(link, Self.nobody, Self.nobody) == 0)
    guard case .untrustedDatabase(let refused, let reason, _) = Self.refusal(link) else {
      Issue.record("not refused")
      return
    }
    #expect(refused == link)
    #expect(reason.contains("symbolic link owned by another user"))
  }
}
