import Glibc

/// Why the store could not be read or written. Each case names the file, so
/// that the message tells the user where to look.
public enum StoreError: Error, Equatable, CustomStringConvertible {
  /// The file exists but is not a valid store; it is left untouched.
  case corrupt(path: String, reason: StoreFormatError)
  /// Another process held the lock for longer than the limit.
  case lockTimeout(lockPath: String, seconds: Int)
  /// A directory, link, store or lock file on the store's way that another
  /// user could have put there or could change (see ``UntrustedReason``);
  /// nothing was read or written through it.
  case untrusted(path: String, reason: UntrustedReason)
  /// A value holds characters a property list cannot (C0 controls); nothing was written.
  case unwritable(path: String, text: String)
  /// A file or directory could not be read, created or written.
  case io(operation: String, path: String, errno: Int32)
  /// The store is read-only (its owner may not write it: `chmod 0400`):
  /// tpns does not replace a file the user made so; nothing was written.
  case readOnly(path: String, mode: mode_t)

  public var description: String {
    switch self {
    case .corrupt(let path, let reason):
      "the store \(path) cannot be read: \(reason)"
    case .lockTimeout(let lockPath, let seconds) where lockPath.hasSuffix(".sync.lock"):
      "another tpns is talking to the server (it holds \(lockPath)); waited \(seconds) s"
    case .lockTimeout(let lockPath, let seconds):
      "another process has held the store lock \(lockPath) for \(seconds) s"
    case .untrusted(let path, let reason):
      reason.description(of: path)
    case .io(let operation, let path, let code):
      "cannot \(operation) \(path): \(String(cString: strerror(code)))"
    case .unwritable(let path, let text):
      "cannot store \(text.debugDescription) in \(path): an XML property list cannot hold "
        + "control characters (but tab and line breaks), U+FFFE or U+FFFF"
    case .readOnly(let path, let mode):
      "the store \(path) is read-only (mode \(UntrustedReason.octal(mode))): tpns does not replace a "
        + "file you made read-only"
    }
  }

  /// One line on what the user can do about it.
  public var suggestion: String {
    switch self {
    case .corrupt:
      "Fix or move the file away (it was not changed); a missing file starts an empty store."
    case .lockTimeout(let lockPath, _) where lockPath.hasSuffix(".sync.lock"):
      "The change is stored and pending; run 'tpns sync' once the other tpns is done "
        + "(check that no stuck process holds the lock)."
    case .lockTimeout:
      "Nothing was changed; run the command again once the other tpns is done "
        + "(check that no stuck process holds the lock)."
    case .untrusted(let path, let reason):
      reason.suggestion(for: path)
    case .io:
      "Check the permissions and free space there, or pass another path with --store."
    case .unwritable:
      "Nothing was stored; give the value without them."
    case .readOnly(let path, _):
      "Nothing was stored; run 'chmod u+w \(path)' to let tpns change it, or pass another "
        + "path with --store."
    }
  }
}
