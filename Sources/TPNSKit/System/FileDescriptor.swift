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
    // A regular file is read into one allocation of its size and a byte more
    // (to see its end), uninitialised; a pipe, or a file that grew, goes on
    // in chunks.
    var status = stat()
    let size =
      fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
      ? Int(status.st_size) : 0
    var failure: Int32?
    var reachedEnd = false
    let first = min(limit, size + 1)
    var bytes = [UInt8](unsafeUninitializedCapacity: first) { buffer, initialized in
      while initialized < first {
        let count = Glibc.read(descriptor, buffer.baseAddress! + initialized, first - initialized)
        if count < 0 && errno == EINTR { continue }
        if count < 0 { failure = errno }
        if count <= 0 {
          reachedEnd = count == 0
          return
        }
        initialized += count
      }
    }
    if let failure { throw ErrnoError(failure) }
    if reachedEnd { return bytes }
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
