import Glibc

/// Reading an open file descriptor: the project's one `read(2)` loop.
public enum FileDescriptor {
  /// All that can be read from `descriptor` up to its end, or its first
  /// `limit` bytes (the rest is not read), reading again after a signal
  /// (`EINTR`); any other failure is thrown as its `errno`. The descriptor is
  /// left open.
  ///
  ///     let bytes = try FileDescriptor.readAll(STDIN_FILENO, limit: 4097)
  public static func readAll(_ descriptor: Int32, limit: Int = .max) throws(ErrnoError) -> [UInt8] {
    // A regular file's size is known: one allocation holds it all.
    var status = stat()
    var bytes: [UInt8] = []
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
      bytes.reserveCapacity(min(limit, Int(status.st_size) + 1))
    }
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while bytes.count < limit {
      let wanted = min(chunk.count, limit - bytes.count)
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw ErrnoError(errno) }
      if count == 0 { break }
      bytes += chunk[..<count]
    }
    return bytes
  }
}
