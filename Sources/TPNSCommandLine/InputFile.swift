import ArgumentParsing
import Glibc
import TPNSKit

/// A file a command reads whole: `add --from`, `import`'s FILE, `--token-file`.
enum InputFile {
  /// The bytes of `path` ('-': standard input), never read past `limit`:
  /// one that cannot be read is exit 66 ("cannot read `noun` NAME"), a larger
  /// one 65 ("`noun` NAME is larger than …: `tooLarge`", with `hint`). A
  /// `secret` (a token file) must pass ``UntrustedReason/ofSecretFile(_:)``
  /// (73), checked on the open file.
  static func read(
    _ path: String, runner: Runner, noun: String = "", limit: Int = PropertyList.maximumSize,
    secret: Bool = false, tooLarge: String, hint: String
  ) throws -> [UInt8] {
    let name = path == "-" ? "<stdin>" : path
    func unreadable(_ code: Int32) -> CommandFailure {
      runner.fail(
        "cannot read \(noun)\(name): \(String(cString: strerror(code)))",
        hint: "Check the path and its permissions, or pass '-' to read standard input.",
        code: ExitStatus.noInput)
    }
    func untrusted(_ reason: UntrustedReason) -> CommandFailure {
      runner.fail(
        reason.description(of: name), hint: reason.suggestion(for: name),
        code: ExitStatus.cannotCreate)
    }
    // A named file is checked before it is opened too: opening another
    // user's named pipe would wait for that user to write into it.
    if secret, path != "-" {
      var status = stat()
      if stat(path, &status) == 0, let reason = UntrustedReason.ofSecretFile(status) {
        throw untrusted(reason)
      }
    }
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw unreadable(errno) }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    if secret {
      var status = stat()
      guard fstat(descriptor, &status) == 0 else { throw unreadable(errno) }
      if let reason = UntrustedReason.ofSecretFile(status) { throw untrusted(reason) }
    }
    let bytes: [UInt8]
    do {
      bytes = try FileDescriptor.readAll(descriptor, limit: limit + 1)
    } catch {
      throw unreadable(error.code)
    }
    guard bytes.count <= limit else {
      let size = limit == PropertyList.maximumSize ? "\(limit >> 20) MiB" : "\(limit) bytes"
      throw runner.fail(
        "\(noun)\(name) is larger than \(size): \(tooLarge)", hint: hint,
        code: ExitStatus.dataError)
    }
    return bytes
  }

  /// `bytes` as UTF-8 text, without the byte-order mark Windows editors write at the start.
  static func text(_ bytes: [UInt8]) -> String {
    String(
      decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...],
      as: UTF8.self)
  }
}
