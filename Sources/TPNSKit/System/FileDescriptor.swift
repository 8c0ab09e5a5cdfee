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
    // A regular file's size is known: it is read straight into one allocation
    // of that size and a byte more (to see its end, or that it grew).
    var status = stat()
    var capacity = 0
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
      capacity = min(max(limit, 0), Int(status.st_size) + 1)
    }
    var failure: Int32 = 0
    var atEnd = false
    var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
      while count < buffer.count {
        let result = Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
        if result < 0, errno == EINTR { continue }
        if result < 0 {
          failure = errno
          return
        }
        if result == 0 {
          atEnd = true
          return
        }
        count += result
      }
    }
    if failure != 0 { throw ErrnoError(failure) }
    if atEnd || bytes.count >= limit { return bytes }
    // Anything else (a pipe, a terminal), or a file that grew: in chunks.
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while !atEnd, bytes.count < limit {
      let wanted = min(chunk.count, limit - bytes.count)
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw ErrnoError(errno) }
      atEnd = count == 0
      bytes += chunk[..<count]
    }
    return bytes
  }
}
