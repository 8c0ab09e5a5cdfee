/// An `errno` value as an error: what a thin wrapper of a system call throws
/// (``FileDescriptor/readAll(_:limit:)``, ``FileLock/init(trying:)``), for
/// its caller to put in a message of its own.
public struct ErrnoError: Error, Equatable {
  /// The `errno` value, `ENOENT` say.
  public var code: Int32

  /// The error of `code`.
  public init(_ code: Int32) {
    self.code = code
  }
}
