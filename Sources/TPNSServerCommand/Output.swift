#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Unbuffered line output: each line is one `write(2)`, so lines from several
/// threads never interleave and a script reading the pipe sees them at once.
enum Output {
  static func line(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    var text = text + "\n"
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}
