/// Why the emulator could not start.
public enum EmulatorError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `start` was called on an emulator that is running.
  case alreadyRunning
  /// The address could not be bound (in use, not local, not an address).
  case cannotListen(host: String, port: UInt16, reason: String)
  /// The registry database could not be opened.
  case database(path: String, reason: String)
  /// The registry database path names a directory, or a file that is not an SQLite
  /// database (left as it was).
  case notADatabase(path: String, isDirectory: Bool)
  /// Another process kept the registry database locked past the busy timeout (5 s).
  case databaseLocked(path: String)
  /// The registry database path names another program's SQLite database (left as it was).
  case notARegistry(path: String, reason: String)
  /// The registry database, one of its companions (`-wal`, `-shm`, `-journal`) or its
  /// directory is another user's, or others may write it (see ``DatabaseTrust``):
  /// `reason` says which and why, `fix` what to do.
  case untrustedDatabase(path: String, reason: String, fix: String)
  /// The snapshot to start from could not be loaded into the registry.
  case snapshot(reason: String)

  public var description: String {
    switch self {
    case .alreadyRunning:
      return "the emulator is already running"
    case .cannotListen(let host, let port, let reason):
      return "cannot listen on \(host):\(port): \(reason)"
    case .database(let path, let reason):
      return "cannot open the registry database '\(path)': \(reason)"
    case .databaseLocked(let path):
      return "cannot open the registry database '\(path)': another process kept it locked "
        + "for 5 s"
    case .notADatabase(let path, let isDirectory):
      return "cannot open the registry database '\(path)': it is "
        + (isDirectory ? "a directory, " : "") + "not a SQLite database"
    case .notARegistry(let path, let reason):
      return "cannot open the registry database '\(path)': it is not a tpns-server registry "
        + "(\(reason))"
    case .untrustedDatabase(_, let reason, _):
      return reason
    case .snapshot(let reason):
      return "cannot load the snapshot: \(reason)"
    }
  }
}
