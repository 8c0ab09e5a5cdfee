import TPNSKit

#if canImport(Glibc)
  import Glibc
#endif

/// A file a command reads whole: `add --from`, `import`'s FILE, `register
/// --token-file`.
enum InputFile {
  /// The most bytes read from a list a command is given (`add --from`,
  /// `import`): a mistaken `/dev/zero` stops here, not when memory is full.
  static let sizeLimit = 64 << 20

  /// Why a file was not read.
  enum Failure: Error {
    /// It cannot be opened or read (exit 66).
    case unreadable(ErrnoError)
    /// A secret no one else may own, read or write is not so (exit 73).
    case untrusted(UntrustedReason)
  }

  /// The bytes of `path` ('-' is standard input), at most `limit` of them
  /// (the rest is not read). A `secret` (a token file) must pass
  /// ``UntrustedReason/ofSecretFile(_:)``, checked on the open file.
  static func read(
    _ path: String, limit: Int = .max, secret: Bool = false
  ) throws(Failure) -> [UInt8] {
    // A named file is checked before it is opened too: opening another
    // user's named pipe would wait for that user to write into it.
    if secret, path != "-" {
      var status = stat()
      if stat(path, &status) == 0, let reason = UntrustedReason.ofSecretFile(status) {
        throw .untrusted(reason)
      }
    }
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable(ErrnoError(errno)) }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    if secret {
      var status = stat()
      guard fstat(descriptor, &status) == 0 else { throw .unreadable(ErrnoError(errno)) }
      if let reason = UntrustedReason.ofSecretFile(status) { throw .untrusted(reason) }
    }
    do {
      return try FileDescriptor.readAll(descriptor, limit: limit)
    } catch {
      throw .unreadable(error)
    }
  }

  /// The bytes of the list `path` ('-': standard input), at most
  /// ``sizeLimit``: one that cannot be read is exit 66, a larger one 65
  /// (`isNot`: what such a file is not; `hint`: what to pass instead).
  /// Never read past the limit.
  static func readList(
    _ path: String, runner: Runner, isNot: String, hint: String
  ) throws -> [UInt8] {
    let name = path == "-" ? "<stdin>" : path
    let bytes: [UInt8]
    do {
      bytes = try read(path, limit: sizeLimit + 1)
    } catch {
      throw runner.fail(
        "cannot read \(name): \(error.reason(for: name))",
        hint: "Check the path and its permissions, or pass '-' to read standard input.",
        code: ExitStatus.noInput)
    }
    guard bytes.count <= sizeLimit else {
      throw runner.fail(
        "\(name) is larger than \(sizeLimit >> 20) MiB: it is \(isNot)", hint: hint,
        code: ExitStatus.dataError)
    }
    return bytes
  }
}

extension InputFile.Failure {
  /// Why the file `name` was not read, in words (`strerror`'s for a failed read).
  func reason(for name: String) -> String {
    switch self {
    case .unreadable(let error): String(cString: strerror(error.code))
    case .untrusted(let reason): reason.description(of: name)
    }
  }
}
