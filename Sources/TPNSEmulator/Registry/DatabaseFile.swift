import Glibc

/// The files a registry opened, the database and its write-ahead log, known by device
/// and inode, so that one deleted or replaced under the running emulator is noticed.
/// SQLite keeps writing to the open (now nameless) files: with the database gone,
/// everything acknowledged is lost on restart; with the log gone, everything not yet
/// checkpointed is lost if the emulator does not stop cleanly.
///
///     let file = DatabaseFile(path: "registry.sqlite")   // once the database is set up
///     file?.error                                         // non-nil once one is gone
///
/// A check is one `stat(2)` per file. It follows a symbolic link, as SQLite does, so a
/// link retargeted elsewhere counts as replaced. The `-shm` index is not watched:
/// SQLite rebuilds it from the log.
struct DatabaseFile: Sendable {
  /// Nothing is at the path any more, or another file is.
  enum Problem: Sendable, Equatable {
    case missing, replaced
  }

  private struct Identity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
    }
  }

  let path: String
  /// The database, then its log unless there is none (SQLite could not use WAL there):
  /// made once, as every state-changing request checks them.
  private let watched: [(path: String, opened: Identity, isLog: Bool)]

  /// Nil when the database cannot be `stat`ed.
  init?(path: String) {
    guard let database = Identity(path: path) else { return nil }
    self.path = path
    let log = path + "-wal"
    watched =
      [(path, database, false)] + (Identity(path: log).map { [(log, $0, true)] } ?? [])
  }

  /// What is wrong with the files now; nil while both are where they were.
  var error: DatabaseFileError? {
    for (path, opened, isLog) in watched {
      let now = Identity(path: path)
      if now != opened {
        return DatabaseFileError(
          path: path, problem: now == nil ? .missing : .replaced, isLog: isLog)
      }
    }
    return nil
  }
}

/// A state-changing request refused because a file of the registry's database is no
/// longer at its path (see ``DatabaseFile``); the emulator answers it with a 503.
struct DatabaseFileError: Error, Sendable, Equatable, CustomStringConvertible {
  let path: String
  let problem: DatabaseFile.Problem
  /// Whether it is the write-ahead log (`-wal`) rather than the database.
  let isLog: Bool

  var description: String {
    let what = problem == .missing ? "was deleted" : "was replaced by another file"
    return isLog
      ? "the registry database's write-ahead log '\(path)' \(what) while tpns-server was "
        + "running; changes are refused, since a crash would lose them (restart "
        + "tpns-server: a clean stop keeps what it holds)"
      : "the registry database '\(path)' \(what) while tpns-server was running; changes "
        + "are refused, since they would be lost on restart (restart tpns-server)"
  }
}
