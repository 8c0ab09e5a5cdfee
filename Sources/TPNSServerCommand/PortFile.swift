import ArgumentParsing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The `--port-file`: the port and a newline, written to a temporary file in the same
/// directory and renamed into place, so that a reader never sees it half-written.
enum PortFile {
  static func write(_ port: UInt16, to path: String) throws {
    let temporary = "\(path).\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure(path, errno) }
    let text = Array("\(port)\n".utf8)
    let written = text.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    // A short write of a few bytes at offset 0 means the disk is full.
    let writeError = written == text.count ? nil : failure(path, written < 0 ? errno : ENOSPC)
    close(descriptor)
    // A failed write is not renamed into place: a reader would see an empty file.
    guard writeError == nil, rename(temporary, path) == 0 else {
      let error = writeError ?? failure(path, errno)
      unlink(temporary)
      throw error
    }
  }

  private static func failure(_ path: String, _ code: Int32) -> CommandFailure {
    CommandFailure(
      "cannot write the port file '\(path)': \(String(cString: strerror(code)))",
      exitCode: ExitCode(73))
  }
}
