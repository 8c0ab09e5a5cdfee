import Glibc

/// Writing a whole file: a generated document (a manual page), or a state that must
/// never be seen half written (a snapshot).
public enum TextFile {
  /// A file that could not be written, and why (`strerror`).
  public struct WriteError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }
  }

  /// Writes `text` to `path` (mode 0644), replacing what was there.
  public static func write(_ text: String, to path: String) throws(WriteError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw WriteError(path: path, reason: String(cString: strerror(errno)))
    }
    Console.write(text, to: descriptor)
    guard close(descriptor) == 0 else {
      throw WriteError(path: path, reason: String(cString: strerror(errno)))
    }
  }

  /// Writes `bytes` to `path` whole or not at all: a temporary file beside it (mode
  /// 0600), synced, then renamed over `path`. The temporary file's name cannot be
  /// guessed, so that another user who can write the directory (`/tmp`) cannot plant
  /// it first.
  public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(WriteError) {
    func failure(_ what: String, _ code: Int32) -> WriteError {
      WriteError(path: path, reason: "\(what): \(String(cString: strerror(code)))")
    }
    // Renamed over, a FIFO or a device (/dev/null) would become a regular file.
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
      throw WriteError(path: path, reason: "not a regular file; refusing to replace it")
    }
    var temporary = ""
    var descriptor: Int32 = -1
    for _ in 0..<8 where descriptor < 0 {
      temporary = path + ".tmp." + String(UInt64.random(in: 0...UInt64.max), radix: 36)
      descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
      if descriptor < 0 && errno != EEXIST { break }
    }
    guard descriptor >= 0 else { throw failure("cannot create \(temporary)", errno) }
    let written = bytes.withUnsafeBufferPointer { Console.write($0, to: descriptor) }
    var error = written == 0 ? nil : failure("write", written)
    if error == nil, fsync(descriptor) != 0 { error = failure("fsync", errno) }
    if close(descriptor) != 0, error == nil { error = failure("close", errno) }
    if error == nil, rename(temporary, path) != 0 { error = failure("rename", errno) }
    if let error {
      unlink(temporary)
      throw error
    }
  }
}
