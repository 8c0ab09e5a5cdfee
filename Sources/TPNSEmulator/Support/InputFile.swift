import Glibc

/// A file the emulator starts from (a TLS certificate or key, a whitelist, a
/// snapshot), read whole and refused when it is not safely its user's.
enum InputFile {
  /// The bytes of the regular file at `path`, at most `limit`.
  static func read(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      throw InputFileError(path: path, reason: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw InputFileError(path: path, reason: String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw InputFileError(path: path, reason: "not a regular file")
    }
    // What the emulator starts from (keys, registries, whitelists) must be its user's
    // (or root's) alone: another user who can change it could plant tokens or keys.
    if status.st_uid != geteuid(), status.st_uid != 0 {
      throw InputFileError(
        path: path, reason: "it belongs to another user (uid \(status.st_uid)), who could change it"
      )
    }
    if status.st_mode & 0o022 != 0 {
      throw InputFileError(
        path: path,
        reason:
          "it is writable by group or others (mode \(String(status.st_mode & 0o777, radix: 8))): "
          + "run 'chmod go-w \(path)'")
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        Glibc.read(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw InputFileError(path: path, reason: String(cString: strerror(errno)))
      }
      if count == 0 { break }
      bytes.append(contentsOf: buffer[..<count])
      guard bytes.count <= limit else {
        throw InputFileError(path: path, reason: "larger than \(limit >> 20) MiB")
      }
    }
    return bytes
  }
}

struct InputFileError: Error, Sendable, CustomStringConvertible {
  var path: String
  var reason: String

  var description: String { "cannot read '\(Printable(path, limit: 4096))': \(reason)" }
}
