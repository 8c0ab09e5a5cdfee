import ArgumentParsing
import Glibc

/// The `--port-file`: the port and a newline, written so that neither a reader nor
/// another user of its directory (`/tmp`) can catch tpns-server out: to a new
/// temporary file beside it under a random name (`O_EXCL`, `O_NOFOLLOW`: a link planted
/// there is never followed), synced, then renamed over `<file>` (replacing a link
/// there, not its target), so a reader sees the whole port or nothing. Its mode is 0644
/// less the umask: the port is no secret (`ss -ltn` shows it to every local user).
///
///     let portFile = try PortFile.write(40123, to: "/run/user/1000/tpns.port")
///     portFile.remove()   // on exit: only if it is still this file
struct PortFile {
  let path: String
  /// The file written.
  private let device: UInt64
  private let inode: UInt64

  static func write(_ port: UInt16, to path: String) throws -> PortFile {
    var temporary = ""
    var descriptor: Int32 = -1
    for _ in 0..<100 {  // each name taken means another file is there
      temporary = "\(path).\(String(UInt64.random(in: .min ... .max), radix: 16)).tmp"
      descriptor = open(
        temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
      if descriptor >= 0 || errno != EEXIST { break }
    }
    guard descriptor >= 0 else { throw failure(path, errno) }
    let text = Array("\(port)\n".utf8)
    let written = text.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    // A short write of a few bytes at offset 0 means the disk is full.
    var error: CommandFailure? =
      written == text.count ? nil : failure(path, written < 0 ? errno : ENOSPC)
    if error == nil && fsync(descriptor) != 0 { error = failure(path, errno) }
    var status = stat()
    if error == nil && fstat(descriptor, &status) != 0 { error = failure(path, errno) }
    close(descriptor)
    // A failed write is not renamed into place: a reader would see an empty file.
    guard error == nil, rename(temporary, path) == 0 else {
      let error = error ?? failure(path, errno)
      unlink(temporary)
      throw error
    }
    return PortFile(path: path, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }

  /// Removes the port file if it is still the one written: a file another server has
  /// since written there (or anything else) is left alone.
  func remove() {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode
    else { return }
    unlink(path)
  }

  private static func failure(_ path: String, _ code: Int32) -> CommandFailure {
    CommandFailure(
      "cannot write the port file '\(path)': \(String(cString: strerror(code)))",
      hint: "Pass a --port-file that names a file in a directory you can write.",
      exitCode: ExitCode(73))
  }
}
