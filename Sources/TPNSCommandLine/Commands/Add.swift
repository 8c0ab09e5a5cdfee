import ArgumentParsing
import TPNSKit
import TPNSProtocol

struct Add: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    abstract: "Add device UIDs to the list and send it (cmd=mapsync).",
    discussion: """
      Every UID is checked first: if one is invalid, nothing is stored. A UID already in \
      the list is left as it is, but for the settings given: --interval and --format set \
      the mapping's settings of every UID given (stored, then sent in its mapsync entry), \
      --no-interval and --no-format clear them; a setting not given is kept.
      """,
    examples: [
      .init(
        "tpns add ABCDEFGHJKLMNPRSTUVW 0123456789ABCDEFGHJK",
        "Store two UIDs and send the list in one mapsync."),
      .init(
        "tpns add --from uids.txt --interval 60",
        "Add the UIDs in a file, one a line, each pushing at most once a minute."),
    ])

  @Argument(help: ArgumentHelp("A 20-character device UID.", valueName: "uid"))
  var uids: [String] = []
  @Option(
    name: .customLong("from"),
    help: ArgumentHelp(
      "Also add the UIDs in this file, one a line ('-': standard input; blank lines and lines "
        + "starting with '#' are skipped).", valueName: "file"))
  var fromFile: FilePath?
  @Flag(
    name: .customLong("no-sync"), help: "Only store the change; send it later with 'tpns sync'.")
  var noSync = false
  @OptionGroup var settings: MappingSettingsOptions
  @OptionGroup var sending: TokenSendingOptions

  var file: String? { fromFile?.string }
  var sync: Bool { !noSync }
  var options: GlobalOptions { sending.resolved }

  func validate() throws {
    if uids.isEmpty, fromFile == nil { throw ValidationError("Missing expected argument '<uid>'") }
  }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    let update = try settings.update(runner: runner)
    var lines: [UIDInput] = []
    if let file {
      let bytes = try InputFile.read(
        file, runner: runner, tooLarge: "it is no list of UIDs",
        hint: "Pass a file of UIDs, one a line ('#' starts a comment).")
      let name = file == "-" ? "<stdin>" : file
      lines = Self.lines(of: bytes, name: name)
      // An empty provisioning file in a CI job must not pass unnoticed.
      if lines.isEmpty, !options.quiet, !options.json {
        runner.output.error("no UIDs in \(name) (blank lines and # comments only)")
      }
    }
    let given = uids.map { UIDInput($0) } + lines
    try runner.run(.init(additions: .just(.init(given, settings: update))), syncsChanges: sync)
  }

  /// The UIDs in `bytes`, each with its place (`name:line`), for a failure
  /// to name: one a line (LF or CRLF), white space around them trimmed, blank
  /// lines and `#` comments skipped.
  static func lines(of bytes: [UInt8], name: String) -> [UIDInput] {
    InputFile.text(bytes)
      .split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
      .enumerated()
      .map { UIDInput($0.element.trimmingWhitespace(), location: "\(name):\($0.offset + 1)") }
      .filter { !$0.text.isEmpty && !$0.text.hasPrefix("#") }
  }
}
