import Foundation
import Locking
import TPNSEmulator
import TPNSTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// The servers, store and lock the reconciliation tests drive.

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
