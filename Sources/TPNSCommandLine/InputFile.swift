import TPNSKit

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
    return try FileDescriptor.readAll(descriptor, limit: limit)
  }
}
