import Glibc

/// An exclusive `flock(2)` on an open file, which it owns: ``release()``, or the
/// lock's end, closes it. A `flock` belongs to the open file, so two opens of one
/// file exclude each other as two processes do.
///
///     guard let lock = try FileLock(trying: descriptor) else { /* held by another */ }
///     defer { lock.release() }
public final class FileLock: @unchecked Sendable {
  // @unchecked: `descriptor` changes only in `release()`, which the holder
  // calls once (a second call finds it closed).
  /// The locked file's descriptor; -1 once released.
  public private(set) var descriptor: Int32

  /// Locks the open file `descriptor` without waiting, and takes it over; nil,
  /// leaving the descriptor open and the caller's, when another open file holds
  /// the lock (`EWOULDBLOCK`) or a signal interrupted the attempt (`EINTR`).
  /// Any other failure is thrown as its `errno`, the descriptor left open.
  public init?(trying descriptor: Int32) throws(ErrnoError) {
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let failure = errno
      guard failure == EWOULDBLOCK || failure == EINTR else { throw ErrnoError(failure) }
      return nil
    }
    self.descriptor = descriptor
  }

  /// Releases the lock by closing the descriptor; a second call does nothing.
  public func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  deinit {
    release()
  }
}
