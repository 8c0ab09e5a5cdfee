import ArgumentParsing
import TPNSEmulator
import TPNSProtocol

extension ServerCommand {
  /// `--whitelist`: activate only the UIDs of a file, as the vendor's console does.
  struct WhitelistOption: ParsableArguments {
    @Option(
      name: .customLong("whitelist"),
      help: ArgumentHelp(
        "Activate only the UIDs in this file (one a line, # comments); the others' mapping, "
          + "rm_mapping and mapsync answer 200 with a body starting 422 (default: every UID "
          + "activated).", valueName: "file"))
    var file: FilePath?

    /// The file's UIDs, nil without `--whitelist`. A file that cannot be read is
    /// exit 66; a line that is not a UID, 65, naming the file and the line.
    func uids() throws -> [DeviceUID]? {
      guard let file else { return nil }
      do throws(WhitelistError) {
        return try Whitelist.load(file: file.string)
      } catch {
        switch error {
        case .unreadable:
          throw CommandFailure(
            error.description, hint: "Pass a readable text file with --whitelist.",
            exitCode: ExitCode(66))
        case .notAUID(let line, let reason):
          throw CommandFailure(
            "\(file.string):\(line): \(reason)",
            hint: "A whitelist holds one UID a line (20 of A-Z and 0-9); # starts a comment.",
            exitCode: ExitCode(65))
        }
      }
    }
  }
}
