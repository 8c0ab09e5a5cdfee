#if canImport(Glibc)
  import Glibc
#endif

/// Reading an open file descriptor: the project's one `read(2)` loop.
public enum FileDescriptor {
  /// All that can be read from `descriptor` up to its end, or its first
  /// `limit` bytes (the rest is not read), reading again after a signal
  /// (`EINTR`); any other failure is thrown as its `errno`. The descriptor is
  /// left open.
  ///
  ///     let bytes = try FileDescriptor.readAll(STDIN_FILENO, limit: 4097)
  public static func readAll(_ descriptor: Int32, limit: Int = .max) throws(ErrnoError) -> [UInt8] {
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
