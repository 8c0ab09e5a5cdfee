import ArgumentParsing
import Posix
import TPNSKit

/// For packaging (Scripts/package.sh): the pages, from the declarations `--help` shows.
struct GenerateManual: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write the manual pages (tpns.1, tpns-add.1, ...) to a directory.",
    shouldDisplay: false)

  @Option(help: ArgumentHelp("Where to write the pages.", valueName: "directory"))
  var outputDirectory: FilePath
  @Option(help: ArgumentHelp("The pages' date.", valueName: "yyyy-mm-dd"))
  var date = "2026-12-01"

  /// What tpns's pages say beyond the declarations.
  static let supplement = ManualSupplement(
    exitStatuses: [
      (0, "Done."),
      (
        64, "Usage: an unknown option, a bad option value, or options that cannot be used together."
      ),
      (
        65,
        "Bad data: an invalid UID, token, index, --format or event message; a UID to remove "
          + "that is in neither the list nor the server's; a --cacert file that is no PEM file; "
          + "a store that does not parse, holds what a store may not (a UID twice; a character "
          + "XML cannot hold, such as U+0001) or is over 64 MiB; a file to import "
          + "that is no property list or holds no UIDs; a --from or import file over 64 MiB."
      ),
      (
        66,
        "A file named on the command line cannot be read: --from, --token-file, --cacert (or is "
          + "not a regular file), import's FILE."
      ),
      (
        69, "The server cannot be reached; the change is stored and pending ('tpns sync' sends it)."
      ),
      (
        73,
        "The store cannot be written, or is not safe to use; or a --token-file belongs to "
          + "another user or the group or others may read it."
      ),
      (
        74,
        "Standard output could not be written (a full disk, a closed descriptor): the command "
          + "ran to the end, but what it printed is incomplete."
      ),
      (
        75,
        "Temporary: a lock was not acquired in time, or the server kept answering 5xx or 429; "
          + "try again."
      ),
      (
        76,
        "The server rejected the request (4xx; its answer is shown), or refused UIDs as not "
          + "activated in the TPNS console (a 2xx whose body starts with 422; each is named)."
      ),
      (78, "tpns sync without a stored token: nothing was sent ('tpns register' first)."),
      (
        130,
        "Interrupted by SIGINT (143: SIGTERM), after saying what is stored and pending and the "
          + "next step (with --json, the document, with \"interrupted\": true)."
      ),
    ],
    files: [
      (
        "~/.config/tpns/state.plist",
        "The store: the token, the UID list, and what each server acknowledged "
          + "($XDG_CONFIG_HOME/tpns/state.plist when XDG_CONFIG_HOME is set)."
      ),
      ("~/.config/tpns/state.plist.lock", "The lock that commands sharing the store take."),
    ],
    environment: [
      ("NO_COLOR", "Set and not empty: no colour with --color auto (no-color.org)."),
      ("TERM", "dumb: no colour with --color auto."),
      (
        "http_proxy, all_proxy, no_proxy",
        "The proxies libcurl takes for an http:// server (never for one on this machine)."
      ),
    ],
    seeAlso: ["tpns-server(1)", "curl(1)"], source: "tpns \(TPNSVersion.current)")

  /// The statuses of a command that only reads the store (`list`, `status`).
  static let readingStatuses: [CommandConfiguration.ExitStatusDescription] = [
    .init(0, "Done."), .init(64, "Usage: an unknown option or a bad option value."),
    .init(
      65,
      "The store does not parse, holds what a store may not (a UID twice, say), or is over "
        + "64 MiB."),
    .init(73, "The store cannot be read, or is not safe to use."),
    .init(74, "Standard output could not be written (a full disk, say)."),
  ]

  /// The statuses of a command that prints and reads nothing (`completion`).
  static let printingStatuses: [CommandConfiguration.ExitStatusDescription] = [
    .init(0, "Done."), .init(64, "Usage: an unknown shell, option or value."),
    .init(74, "Standard output could not be written (a full disk, say)."),
  ]

  func run() throws {
    for page in TPNS.manualPages(Self.supplement, date: date) {
      do {
        try TextFile.write(page.text, to: outputDirectory.string + "/" + page.fileName)
      } catch {
        throw CommandFailure(
          error.description, hint: "Check that the directory exists and is writable.",
          exitCode: ExitStatus.cannotCreate)
      }
    }
  }
}
