import Glibc
import Synchronization

/// Unbuffered output for commands: each call is written whole with `write(2)`
/// (retried on EINTR and partial writes), so lines from several threads never
/// interleave and a script reading the pipe sees them at once.
///
///     Console.line("listening on \(url)")
///     Console.error("Error: \(message)")
public enum Console {
  /// `text` and a newline, to standard output.
  public static func line(_ text: String) {
    write(text + "\n", to: STDOUT_FILENO)
  }

  /// `text` and a newline, to standard error.
  public static func error(_ text: String) {
    write(text + "\n", to: STDERR_FILENO)
  }

  /// All of `text`, to `descriptor`.
  public static func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { _ = write($0, to: descriptor) }
  }

  /// Writes all of `bytes` to standard output, or throws why it could not
  /// (a full disk, a closed descriptor): for output written in pieces, where
  /// going on after a lost piece would print a list with a gap in it.
  public static func outputChecked(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    let failure = write(bytes, to: STDOUT_FILENO)
    if failure != 0 { throw OutputError(errno: failure) }
  }

  /// Why standard output lost text since the process started (the first
  /// failed write, but a closed pipe), or nil: a command whose output went
  /// missing did not do what it said, so `ParsableCommand.main` exits 74
  /// instead of 0.
  public static var outputFailure: OutputError? {
    let failure = firstOutputFailure.load(ordering: .relaxed)
    return failure == 0 ? nil : OutputError(errno: failure)
  }

  private static let firstOutputFailure = Atomic<Int32>(0)

  /// Why output could not be written: `errno` of the failed `write(2)`.
  public struct OutputError: Error, Equatable, CustomStringConvertible {
    public let errno: Int32
    public var description: String { String(cString: strerror(errno)) }
  }

  /// Writes all of `bytes`, retrying on EINTR and partial writes, and waiting
  /// for room when the descriptor is non-blocking and full (EAGAIN: a
  /// non-blocking pipe whose reader is slower); 0, or the errno of the
  /// `write(2)` that failed.
  @discardableResult
  static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32 {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        let failure = errno
        if failure == EINTR { continue }
        if failure == EAGAIN || failure == EWOULDBLOCK {
          var room = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          if poll(&room, 1, -1) >= 0 || errno == EINTR { continue }
        }
        return record(failure, descriptor)
      }
      guard written > 0 else { return record(EIO, descriptor) }
      offset += written
    }
    return 0
  }

  private static func record(_ failure: Int32, _ descriptor: Int32) -> Int32 {
    // A reader that went away (`| head -1`) wanted no more: no failure of the command.
    if descriptor == STDOUT_FILENO, failure != EPIPE {
      _ = firstOutputFailure.compareExchange(expected: 0, desired: failure, ordering: .relaxed)
    }
    return failure
  }
}
