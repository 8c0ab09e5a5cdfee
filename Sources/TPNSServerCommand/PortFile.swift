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
    guard descriptor >= 0 else { throw failure(path) }
    Console.write(String(port) + "\n", to: descriptor)
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      let error = failure(path)
      unlink(temporary)
      throw error
    }
  }

  private static func failure(_ path: String) -> CommandFailure {
    CommandFailure(
      "cannot write the port file '\(path)': \(String(cString: strerror(errno)))",
      exitCode: ExitCode(73))
  }
}
