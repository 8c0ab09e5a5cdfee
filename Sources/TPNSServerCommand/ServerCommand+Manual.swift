import ArgumentParsing
import Posix
import TPNSProtocol

extension ServerCommand {
  /// `tpns-server generate-manual --output-directory DIR`: writes
  /// `tpns-server.1` and its subcommands' pages, from the declarations.
  struct GenerateManual: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write the manual pages (tpns-server.1, ...) to a directory.",
      shouldDisplay: false)

    @Option(help: ArgumentHelp("Where to write the pages.", valueName: "directory"))
    var outputDirectory: FilePath
    @Option(help: ArgumentHelp("The pages' date.", valueName: "yyyy-mm-dd"))
    var date = "2026-12-01"

    static let supplement = ManualSupplement(
      exitStatuses: [
        (0, "Stopped by SIGHUP, SIGINT or SIGTERM (exec: its command's status)."),
        (
          64,
          "Usage: an unknown option or a bad option value; a --tls-cert or --tls-key file that "
            + "cannot be read, holds no PEM, or a key that is not the certificate's."
        ),
        (
          65,
          "--db names a file that is not a registry tpns-server created (it is left as it "
            + "is); a --whitelist line is not a UID; an --import file that is not a snapshot."
        ),
        (66, "The --whitelist or --import file cannot be read."),
        (69, "The address cannot be listened on (the port is taken, say)."),
        (
          73,
          "The database cannot be created or opened, or it, its -wal, -shm or -journal, or its "
            + "directory belongs to another user or is writable by others; --port-file or "
            + "--export-on-exit cannot be written."
        ),
        (74, "Standard output could not be written: lines it printed were lost."),
        (75, "The --db file stayed locked by another process for 5 seconds."),
      ],
      files: [
        (
          "/var/lib/tpns-server/registry.sqlite",
          "The registry of the packaged service (tpns-server.service); without --db it is kept "
            + "in memory."
        )
      ],
      environment: [
        (
          "TPNS_SERVER",
          "Not read. exec sets it, for its command, to the emulator's URL "
            + "(http://127.0.0.1:PORT/tpns; https:// with --tls)."
        ),
        (
          "TPNS_CACERT",
          "Not read. exec --tls sets it, for its command, to the file of its throwaway "
            + "certificate, which tpns reads as --cacert."
        ),
        ("TMPDIR", "Where exec --tls makes the private directory of that file (default /tmp)."),
      ],
      seeAlso: ["tpns(1)"], source: "tpns \(TPNSVersion.current)")

    func run() throws {
      for page in ServerCommand.manualPages(Self.supplement, date: date) {
        do {
          try TextFile.write(page.text, to: outputDirectory.string + "/" + page.fileName)
        } catch {
          throw CommandFailure(
            error.description, hint: "Check that the directory exists and is writable.",
            exitCode: ExitCode(73))
        }
      }
    }
  }
}
