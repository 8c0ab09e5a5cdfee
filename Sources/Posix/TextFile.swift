#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writing a whole text file (generated documents: manual pages).
public enum TextFile {
  /// A file that could not be written, and why (`strerror`).
  public struct WriteError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }
  }

  /// Writes `text` to `path` (mode 0644), replacing what was there.
  public static func write(_ text: String, to path: String) throws(WriteError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw WriteError(path: path, reason: String(cString: strerror(errno)))
    }
    Console.write(text, to: descriptor)
    guard close(descriptor) == 0 else {
      throw WriteError(path: path, reason: String(cString: strerror(errno)))
    }
  }
}
