#if canImport(Glibc)
  import Glibc
#endif

/// Writes to stdout and stderr unbuffered, whole lines at a time.
enum Output {
  /// A line to stdout.
  static func line(_ text: String) {
    write(text + "\n", to: STDOUT_FILENO)
  }

  /// A line to stderr.
  static func error(_ text: String) {
    write(text + "\n", to: STDERR_FILENO)
  }

  private static func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}
