import Glibc

/// Why a file or directory on the store's way is not trusted: what ssh's
/// `StrictModes` refuses for `~/.ssh`. Anyone who can write a directory on
/// the way, or who owns a link or file there, could hand tpns their own
/// store, a FIFO that never opens, or a lock they hold forever. Each static
/// function here is the rule for one kind of path: nil for a path to trust.
///
///     UntrustedReason.ofDirectory(status)  // nil: owned by me or root, not writable by others
public enum UntrustedReason: Sendable, Equatable {
  /// A directory on the way owned by neither this user nor root.
  case directoryOwner(uid: uid_t)
  /// A directory on the way that the group or others may write, without
  /// the sticky bit: they could rename anything in it.
  case directoryWritable(mode: mode_t)
  /// A symbolic link on the way owned by another user (``ofLink(_:isStore:)``):
  /// it could point anywhere.
  case linkOwner(uid: uid_t)
  /// The store file belongs to another user.
  case fileOwner(uid: uid_t)
  /// A lock file beside the store belongs to another user, who could hold
  /// it to keep every tpns waiting.
  case lockOwner(uid: uid_t)
  /// The store or a lock file may be written by the group or others.
  case fileWritable(mode: mode_t)
  /// The store or a lock file is not a regular file (`kind`: "a FIFO", …).
  case notARegularFile(kind: String)
  /// A token file (`register --token-file`) belongs to another user, who
  /// could have put their own phone's token in it.
  case secretOwner(uid: uid_t)
  /// A token file that the group or others may read or write (any of the
  /// `077` bits, as ssh refuses a private key).
  case secretExposed(mode: mode_t)

  /// The reason not to trust the directory `status` describes, if any.
  static func ofDirectory(_ status: stat) -> UntrustedReason? {
    if status.st_uid != user, status.st_uid != 0 { return .directoryOwner(uid: status.st_uid) }
    if status.st_mode & 0o022 != 0, status.st_mode & S_ISVTX == 0 {
      return .directoryWritable(mode: status.st_mode & 0o7777)
    }
    return nil
  }

  /// The reason not to follow the link `status` describes, if any: on the
  /// way to the store's directory, this user's or root's; as the store's own
  /// name, this user's only.
  static func ofLink(_ status: stat, isStore: Bool) -> UntrustedReason? {
    let owner = status.st_uid
    return owner == user || (!isStore && owner == 0) ? nil : .linkOwner(uid: owner)
  }

  /// The reason not to use the store file or lock file `status` describes, if any.
  static func ofFile(_ status: stat, isLock: Bool) -> UntrustedReason? {
    let type = status.st_mode & S_IFMT
    guard type == S_IFREG else { return .notARegularFile(kind: kinds[type] ?? "not a file") }
    if status.st_uid != user {
      return isLock ? .lockOwner(uid: status.st_uid) : .fileOwner(uid: status.st_uid)
    }
    if status.st_mode & 0o022 != 0 { return .fileWritable(mode: status.st_mode & 0o7777) }
    return nil
  }

  /// The reason not to read the secret (a token file) `status` describes,
  /// if any: whatever it is, this user's or root's; a regular file no one
  /// else's to read or write either (what ssh asks of a private key). A
  /// pipe, a terminal or a device of this user's (`--token-file -` from a
  /// pipe, `<(…)`) passes.
  public static func ofSecretFile(_ status: stat) -> UntrustedReason? {
    // Whatever its type: another user's named pipe would hand over their token.
    if status.st_uid != user, status.st_uid != 0 { return .secretOwner(uid: status.st_uid) }
    guard status.st_mode & S_IFMT == S_IFREG else { return nil }
    if status.st_mode & 0o077 != 0 { return .secretExposed(mode: status.st_mode & 0o7777) }
    return nil
  }

  /// Asked once: `geteuid` is a system call, and every check on the way asks.
  private static let user = geteuid()

  /// What `path` is and why it is refused, for ``StoreError/untrusted(path:reason:)``.
  public func description(of path: String) -> String {
    switch self {
    case .directoryOwner(let uid):
      "the directory \(path) on the way to the store belongs to \(Self.user(uid)), "
        + "neither you nor root; refusing to use the store in it"
    case .directoryWritable(let mode):
      "the directory \(path) on the way to the store is writable by group or others "
        + "(mode \(Self.octal(mode))) and not sticky: anyone who can write it could swap the store"
    case .linkOwner(let uid):
      "\(path) is a symbolic link owned by another user (\(Self.user(uid))); refusing to follow it"
    case .fileOwner(let uid):
      "the store \(path) belongs to another user (\(Self.user(uid))); refusing to read it"
    case .lockOwner(let uid):
      "the lock file \(path) belongs to another user (\(Self.user(uid))), who could hold it "
        + "to stop tpns; refusing to use it"
    case .fileWritable(let mode):
      "\(path) is writable by group or others (mode \(Self.octal(mode))); refusing to trust it"
    case .notARegularFile(let kind):
      "\(path) is \(kind), not a regular file; refusing to open it"
    case .secretOwner(let uid):
      "the token file \(path) belongs to another user (\(Self.user(uid))), who could have put "
        + "their own phone's token in it; refusing to read it"
    case .secretExposed(let mode):
      "the token file \(path) may be read or written by group or others (mode "
        + "\(Self.octal(mode))); refusing to read it, as ssh refuses such a private key"
    }
  }

  /// The fix for `path`, one line.
  public func suggestion(for path: String) -> String {
    switch self {
    case .directoryOwner:
      "Keep the store in a directory you own (pass --store), or have the directory chown'ed to you."
    case .directoryWritable:
      "Run 'chmod go-w \(path)' (or 'chmod +t' for a shared directory such as /tmp), "
        + "or keep the store in a directory only you can write (--store)."
    case .linkOwner:
      "Remove the link, or pass a store path you own with --store."
    case .fileOwner, .lockOwner:
      "Remove \(path) if it is not yours, or keep the store in a directory only you can write "
        + "(--store); if it is yours, chown it to yourself."
    case .fileWritable:
      "Run 'chmod go-w \(path)' (tpns writes its files 0600)."
    case .notARegularFile(let kind) where kind == "a directory":
      "--store takes a file's path: pass one in that directory, such as --store "
        + "\(path.hasSuffix("/") ? path : path + "/")state.plist."
    case .notARegularFile:
      "Remove \(path) (a missing store starts empty), or pass another path with --store."
    case .secretOwner:
      "Write the token to a file of your own with '(umask 077; printf '%s' TOKEN > token.txt)', "
        + "or pass it on standard input (--token-file -)."
    case .secretExposed:
      "Run 'chmod 600 \(path)' (write token files under 'umask 077'), or pass the token on "
        + "standard input (--token-file -)."
    }
  }

  private static let kinds: [mode_t: String] = [
    S_IFDIR: "a directory", S_IFIFO: "a FIFO", S_IFSOCK: "a socket", S_IFCHR: "a device",
    S_IFBLK: "a device", S_IFLNK: "a symbolic link",
  ]

  /// `nobody, uid 65534`, or `uid 1234` for a user without a name.
  private static func user(_ uid: uid_t) -> String {
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
    return "\(String(cString: name)), uid \(uid)"
  }

  /// `mode` as `chmod` takes it: `0400`, `1777`.
  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode & 0o7777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
