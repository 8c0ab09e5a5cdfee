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
    // Read in place into a buffer the size of a regular file and a byte more (to
    // see its end), or of 64 KiB, doubled while it fills up to `limit`.
    let limit = max(limit, 0)
    var status = stat()
    let size =
      fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
      ? Int(status.st_size) + 1 : 65_536
    var bytes = [UInt8](repeating: 0, count: min(limit, size))
    var count = 0
    while count < bytes.count {
      let result = bytes.withUnsafeMutableBytes {
        Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count)
      }
      if result < 0, errno == EINTR { continue }
      guard result >= 0 else { throw ErrnoError(errno) }
      if result == 0 { break }
      count += result
      if count == bytes.count, count < limit {
        bytes += [UInt8](repeating: 0, count: min(count, limit - count))
      }
    }
    bytes.removeLast(bytes.count - count)
    return bytes
  }
}
