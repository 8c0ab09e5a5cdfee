#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
    text.withUTF8 { write($0, to: descriptor) }
  }

  /// All of `bytes` (lines, each with its newline), to standard output: what
  /// a long listing builds as bytes.
  public static func output(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { write($0, to: STDOUT_FILENO) }
  }

  /// Writes `bytes` to standard output as they are.
  public static func output(_ bytes: UnsafeBufferPointer<UInt8>) {
    write(bytes, to: STDOUT_FILENO)
  }

  private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }
}
