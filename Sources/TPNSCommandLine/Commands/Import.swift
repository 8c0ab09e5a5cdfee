import ArgumentParsing
import TPNSKit
import TPNSProtocol

struct Import: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    abstract: "Add the UIDs of the app's preferences file or another store and send the list.",
    discussion: """
      The file is a property list, XML or binary, whose 'UIDs' is an array of UIDs: the \
      quickstart app's preferences file (its UserDefaults, binary on a device and in a \
      backup) or another tpns store. Every UID in it is checked first: if one is invalid, \
      nothing is stored. The new ones are added after the stored ones, which are kept; with \
      --replace, the list becomes exactly the file's, in its order, and a UID no longer in \
      it leaves the server too. A store's settings of its UIDs (interval, format) come \
      along; with --replace, each UID's settings become the store's.
      """,
    examples: [
      .init(
        "tpns import com.tutk.cc.samples.tpns.ios.plist",
        "Add the UIDs of the app's preferences file (copied from a device or a backup) and "
          + "send the list."),
      .init(
        "tpns import --replace ~/old/state.plist",
        "Make the list exactly another store's; the UIDs it lacks leave the server."),
    ])

  @Argument(
    help: ArgumentHelp(
      "The property list to read, XML or binary ('-': standard input).", valueName: "file"))
  var path: FilePath
  @Flag(
    name: .customLong("replace"),
    help: "Make the list exactly the file's: stored UIDs not in it are removed.")
  var replace = false
  @Flag(
    name: .customLong("no-sync"), help: "Only store the change; send it later with 'tpns sync'.")
  var noSync = false
  @OptionGroup var sending: TokenSendingOptions

  var file: String { path.string }
  var sync: Bool { !noSync }
  var options: GlobalOptions { sending.resolved }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    let name = file == "-" ? "<stdin>" : file
    let bytes = try InputFile.read(
      file, runner: runner,
      tooLarge: "it is no preferences file or store",
      hint: "Pass the app's preferences file or a tpns store.")
    let contents: ImportFile.Contents
    do {
      contents = try ImportFile.contents(of: bytes, name: name)
    } catch {
      throw runner.fail(error.description, hint: error.suggestion, code: ExitStatus.dataError)
    }
    let uids = contents.uids
    if uids.isEmpty, !options.quiet, !options.json {
      runner.output.error(
        "no UIDs in \(name)" + (replace ? ": the list is emptied" : ": nothing to add"))
    }
    try runner.run(
      .init(
        additions: .just(
          .init(
            uids, settingsByUID: Self.settingsChanges(contents, replacing: replace),
            replacesList: replace))), syncsChanges: sync)
  }

  /// What the import does to each UID's settings: a store's come along; with
  /// `--replace`, they become exactly the store's (none given: none kept).
  /// An app's preferences, without settings, change none.
  static func settingsChanges(
    _ contents: ImportFile.Contents, replacing: Bool
  ) -> [String: MappingSettingsUpdate] {
    guard let settings = contents.settings else { return [:] }
    var changes: [String: MappingSettingsUpdate] = [:]
    for input in contents.uids {
      guard let uid = try? DeviceUID(input.text).rawValue else { continue }
      let own = settings[uid] ?? MappingSettings()
      guard replacing || !own.isEmpty else { continue }
      changes[uid] = MappingSettingsUpdate(toMatch: own, clearing: replacing)
    }
    return changes
  }
}
