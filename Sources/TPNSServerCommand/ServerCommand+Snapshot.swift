import ArgumentParsing
import Posix
import TPNSEmulator

extension ServerCommand {
  /// `--import` and `--export-on-exit`: start from a snapshot, keep what a run left.
  struct SnapshotOptions: ParsableArguments {
    @Option(
      name: .customLong("import"),
      help: ArgumentHelp(
        "Start from the state in this snapshot file (the document GET /_emulator/snapshot "
          + "answers).", valueName: "file"))
    var importFile: FilePath?
    @Option(
      name: .customLong("export-on-exit"),
      help: ArgumentHelp(
        "Write the state to this file as a snapshot on the way out (SIGTERM, SIGINT, SIGHUP; "
          + "for exec, when the command ends), whole or not at all, mode 0600.",
        valueName: "file"))
    var exportFile: FilePath?

    /// The snapshot to start from, nil without `--import`: exit 66 when its file
    /// cannot be read, 65 when it is not a snapshot. Checks first that
    /// `--export-on-exit` can be written (73), so that a run is not made for nothing.
    func snapshot() throws -> Snapshot? {
      if let exportFile, let problem = Snapshot.exportProblem(exportFile.string) {
        throw CommandFailure(
          "--export-on-exit: \(problem)",
          hint: "Pass a file in a directory you can write.", exitCode: ExitCode(73))
      }
      guard let importFile else { return nil }
      do throws(SnapshotError) {
        return try Snapshot.read(file: importFile.string)
      } catch {
        throw CommandFailure(
          error.description,
          hint: error.isUnreadable
            ? "Pass a readable snapshot file with --import."
            : "Pass a file that GET /_emulator/snapshot or --export-on-exit wrote.",
          exitCode: ExitCode(error.isUnreadable ? 66 : 65))
      }
    }

    /// Stops `emulator`, then writes its state to `--export-on-exit`'s file if given:
    /// exit 73 when it cannot be written.
    func stop(_ emulator: Emulator) throws {
      guard let exportFile else {
        emulator.stop()
        return
      }
      do {
        if let snapshot = try emulator.stopTakingSnapshot() {
          try TextFile.writeAtomically(snapshot.json(), to: exportFile.string)
        }
      } catch {
        throw CommandFailure(
          "--export-on-exit: \(error)",
          hint: "Pass a file in a directory you can write.", exitCode: ExitCode(73))
      }
    }
  }
}
