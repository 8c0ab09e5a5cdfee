#if canImport(Glibc)
  import Glibc
#endif

/// A file a command reads whole: `add --from`, `register --token-file`.
enum InputFile {
  /// The bytes of `path` ('-' is standard input), at most `limit` of them
  /// (the rest is not read), or the errno of the failure.
  static func read(_ path: String, limit: Int = .max) throws(ErrnoError) -> [UInt8] {
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw ErrnoError(errno) }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while bytes.count < limit {
      let wanted = min(buffer.count, limit - bytes.count)
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw ErrnoError(errno) }
      if count == 0 { break }
      bytes += buffer[..<count]
    }
    return bytes
  }
}

/// An `errno` value as an error.
struct ErrnoError: Error {
  var code: Int32

  init(_ code: Int32) {
    self.code = code
  }
}
