import ArgumentParsing
import TPNSKit

#if canImport(Glibc)
  import Glibc
#endif

/// `tpns add <uid>...`: stores the UIDs, then sends the whole list.
struct Add: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "add",
      abstract: "Add device UIDs to the list and send it (cmd=mapsync).",
      discussion: """
        Every UID is checked first: if one is invalid, nothing is stored. A UID already in \
        the list is left as it is.
        """,
      options: [
        .option(
          "from", valueName: "file",
          help: "Also add the UIDs in this file, one a line ('-': standard input).",
          validate: { !$0.isEmpty }),
        .flag("no-sync", help: "Only store the change; send it later with 'tpns sync'."),
      ] + GlobalOptions.options,
      arguments: [
        Argument("uid", help: "A 20-character device UID.", isOptional: true, parsing: .remaining)
      ])
  }

  let uids: [String]
  let file: String?
  let sync: Bool
  let options: GlobalOptions

  init(_ values: ParsedValues) throws {
    uids = values.argument("uid")
    file = values.value("from")
    if uids.isEmpty, file == nil { throw ValidationError("Missing expected argument '<uid>'") }
    sync = !values.flag("no-sync")
    options = try GlobalOptions(values, environment: ProcessEnvironment.current)
  }

  func run() throws {
    let runner = Runner(command: "add", options: options)
    var all = uids
    if let file { all += try Self.readLines(file) }
    // Check every UID before anything is stored or sent.
    for text in all {
      do { _ = try DeviceUID(text) } catch { throw runner.failure(.invalidUID(text, error)) }
    }
    try runner.run(.init(addBatches: .just(all)), syncsChanges: sync)
  }

  /// The non-empty lines of `path` ('-' is standard input), '#' comments left out.
  static func readLines(_ path: String) throws -> [String] {
    let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw CommandFailure(
        "cannot read \(path): \(String(cString: strerror(errno)))", exitCode: ExitStatus.noInput)
    }
    defer { if descriptor != STDIN_FILENO { close(descriptor) } }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else {
        throw CommandFailure(
          "cannot read \(path): \(String(cString: strerror(errno)))", exitCode: ExitStatus.noInput)
      }
      if count == 0 { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
      .split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
      .map { $0.trimmingWhitespace() }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") }
  }
}
