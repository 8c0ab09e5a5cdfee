import Glibc

/// Why an existing registry database is not to be used: the rules `tpns` applies to
/// its store (see TPNSKit's `UntrustedReason`), applied to the database, its
/// companions (`-wal`, `-shm`, `-journal`) and its directory. The database holds every
/// phone's push token: a file another user owns (a `0666` database they created in a
/// shared directory) lets them read the tokens and change the registry, and a
/// directory they can write lets them swap the files.
///
/// - The directory: owned by this user or root, and not writable by group or others
///   unless sticky (`/tmp`).
/// - Each file that exists: a regular file (a directory as the database's own name is
///   left to SQLite, whose error says so), owned by this user, not writable by group
///   or others. A symbolic link is followed only if this user owns it.
///
///     DatabaseTrust.refusal(path: "registry.sqlite")  // nil: nothing to refuse
struct DatabaseTrust: Sendable, Equatable {
  /// The database, a companion or the directory.
  var path: String
  var reason: String
  /// What to do, one line.
  var fix: String

  static func refusal(path: String) -> DatabaseTrust? {
    let directory = directoryName(of: path)
    var status = stat()
    if stat(directory, &status) == 0, let refusal = ofDirectory(directory, status) {
      return refusal
    }
    for file in [path, path + "-wal", path + "-shm", path + "-journal"] {
      guard lstat(file, &status) == 0 else { continue }  // missing: SQLite creates it
      if status.st_mode & S_IFMT == S_IFLNK {
        guard status.st_uid == geteuid() else {
          return DatabaseTrust(
            path: file,
            reason: "\(file) is a symbolic link owned by another user (\(user(status.st_uid))); "
              + "refusing to follow it",
            fix: "Remove the link, or pass a --db path you own.")
        }
        guard stat(file, &status) == 0 else { continue }
      }
      if let refusal = ofFile(file, status, isDatabase: file == path) { return refusal }
    }
    return nil
  }

  private static func ofDirectory(_ directory: String, _ status: stat) -> DatabaseTrust? {
    if status.st_uid != geteuid(), status.st_uid != 0 {
      return DatabaseTrust(
        path: directory,
        reason: "the directory \(directory) of the registry database belongs to "
          + "\(user(status.st_uid)), neither you nor root: they could swap the database",
        fix: "Keep the database in a directory you own (--db DIR/registry.sqlite), or chown "
          + "the directory to yourself.")
    }
    if status.st_mode & 0o022 != 0, status.st_mode & S_ISVTX == 0 {
      return DatabaseTrust(
        path: directory,
        reason: "the directory \(directory) of the registry database is writable by group or "
          + "others (mode \(octal(status.st_mode))) and not sticky: anyone who can write it "
          + "could swap the database",
        fix: "Run 'chmod go-w \(directory)', or keep the database in a directory only you can "
          + "write.")
    }
    return nil
  }

  private static func ofFile(_ file: String, _ status: stat, isDatabase: Bool) -> DatabaseTrust? {
    let type = status.st_mode & S_IFMT
    if type == S_IFDIR && isDatabase { return nil }  // SQLite's error names it
    guard type == S_IFREG else {
      return DatabaseTrust(
        path: file, reason: "\(file) is not a regular file; refusing to open it",
        fix: "Remove \(file), or pass another --db path.")
    }
    if status.st_uid != geteuid() {
      return DatabaseTrust(
        path: file,
        reason: "\(file) belongs to another user (\(user(status.st_uid))), who could read "
          + "every push token in it and change the registry; refusing to use it",
        fix: "Remove \(file) if it is not yours (tpns-server creates a new one, 0600), or "
          + "keep the database in a directory only you can write; if it is yours, chown it "
          + "to yourself.")
    }
    if status.st_mode & 0o022 != 0 {
      return DatabaseTrust(
        path: file,
        reason: "\(file) is writable by group or others (mode \(octal(status.st_mode))): "
          + "they could change the registry; refusing to use it",
        fix: "Run 'chmod 600 \(file)' (tpns-server creates its files 0600).")
    }
    return nil
  }

  /// The directory part of `path` (`.` for a bare name).
  static func directoryName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `nobody, uid 65534`, or `uid 1234` for a user without a name.
  private static func user(_ uid: uid_t) -> String {
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
    return "\(String(cString: name)), uid \(uid)"
  }

  /// `0777`, `1777`.
  private static func octal(_ mode: mode_t) -> String {
    let digits = String(mode & 0o7777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
