import ArgumentParsing
import Glibc
import Posix
import TPNSEmulator

extension ServerCommand {
  /// `tpns-server exec [--] COMMAND [ARGS...]`: runs a command against a fresh emulator
  /// on a free port, then stops it and exits with the command's status.
  public struct Exec: ParsableCommand {
    public static let configuration = CommandConfiguration(
      commandName: "exec",
      abstract: "Run a command against an emulator on a free port, then stop it.",
      discussion: """
        Starts the emulator on 127.0.0.1 and a free port, runs COMMAND with \
        TPNS_SERVER set to its URL (http://127.0.0.1:PORT/tpns), forwards SIGHUP, SIGINT \
        and SIGTERM to it, then stops and exits with its status (128+N if signal N \
        killed it, 127 if it cannot be found). Request lines go to stderr. Everything \
        from COMMAND's name on is COMMAND's, options included: the '--' before it \
        is optional. With --tls it serves https with a throwaway self-signed \
        certificate for 127.0.0.1 and localhost (its key never leaves memory), sets \
        TPNS_SERVER to https://127.0.0.1:PORT/tpns and TPNS_CACERT to the certificate's \
        file, which tpns trusts as --cacert, and deletes the file when it stops.
        """,
      examples: [
        .init("tpns-server exec -- Scripts/smoke.sh", "Run a script against a fresh emulator."),
        .init(
          "tpns-server exec --db ci.sqlite sh -c 'tpns sync && tpns list'",
          "Keep the registry the command left, in ci.sqlite."),
        .init(
          "tpns-server exec --tls -- Scripts/smoke.sh",
          "Run a script over https, verified with the throwaway certificate."),
        .init(
          "tpns-server exec --whitelist activated.txt -- Scripts/smoke.sh",
          "Activate only the file's UIDs, as the vendor's console does."),
      ],
      exitStatuses: [
        .init(0, "The command exited 0."),
        .init(64, "Usage: no command, or an unknown option or bad value before it."),
        .init(65, "A --whitelist line is not a UID, or the --import file is not a snapshot."),
        .init(66, "The --whitelist or --import file cannot be read."),
        .init(69, "The emulator cannot listen."),
        .init(
          73,
          "The --db file cannot be opened, --tls's temporary directory cannot be made, or "
            + "--export-on-exit cannot be written (whatever the command's status)."),
        .init(75, "The --db file stayed locked by another process for 5 seconds."),
        .init(126, "The command cannot be run (not executable, a directory)."),
        .init(127, "The command is not found."),
        .init(128, "128+N: signal N killed the command; otherwise its own exit status."),
      ])

    @OptionGroup var storage: DatabaseOption
    @OptionGroup var behaviour: BehaviourOptions
    @OptionGroup var whitelist: WhitelistOption
    @OptionGroup var snapshots: SnapshotOptions
    @Flag(
      help: ArgumentHelp(
        "Serve https with a throwaway self-signed certificate, whose file TPNS_CACERT names."))
    var tls = false
    @Argument(parsing: .postTerminator, help: "The command to run, and its arguments.")
    var command: [String]

    public init() {}

    /// `arguments` (without the program's name) with a `--` put before `exec`'s
    /// COMMAND when there is none, so that everything from COMMAND's name on is
    /// COMMAND's, options included, as with `env` or `xargs`: `exec sh -c 'id'` reads
    /// as `exec -- sh -c 'id'`. Any other command line is returned as it is.
    ///
    ///     Exec.separatingCommand(["exec", "--quiet", "sh", "-c", "id"])
    ///     // ["exec", "--quiet", "--", "sh", "-c", "id"]
    public static func separatingCommand(_ arguments: [String]) -> [String] {
      guard arguments.first == commandName else { return arguments }
      var index = arguments.startIndex + 1
      while index < arguments.endIndex {
        let argument = arguments[index]
        if argument == "--" { return arguments }
        guard argument.hasPrefix("-"), argument != "-" else {
          return Array(arguments[..<index]) + ["--"] + arguments[index...]
        }
        index += 1
        // The option's value, when it takes one given apart (`--db x`, not `--db=x`).
        if optionTakesValue(named: argument), index < arguments.endIndex,
          !arguments[index].hasPrefix("-")
        {
          index += 1
        }
      }
      return arguments
    }

    /// Runs the command against a fresh emulator; throws ``ExitCode`` with its status.
    public func run() throws {
      let signals = Signals(blocking: [SIGHUP, SIGINT, SIGTERM, SIGCHLD])
      let activated = try whitelist.uids()
      let imported = try snapshots.snapshot()
      let certificate = tls ? try ThrowawayCertificate() : nil
      defer { certificate?.remove() }
      let emulator = try ServerCommand.start(
        host: "127.0.0.1", port: 0, storage: storage, behaviour: behaviour,
        tls: certificate?.identity, whitelist: activated, snapshot: imported,
        log: { Console.error($0) })
      defer { emulator.stop() }  // idempotent: `snapshots.stop` has stopped it before
      if !behaviour.quiet { Console.error("listening on \(emulator.baseURL ?? "")") }

      var environment = ["TPNS_SERVER": emulator.baseURL ?? ""]
      if let certificate { environment["TPNS_CACERT"] = certificate.path }
      let child: ChildProcess
      do throws(ChildProcess.SpawnError) {
        child = try ChildProcess(command, environment: environment)
      } catch {
        try snapshots.stop(emulator)
        let notFound = error.code == ENOENT
        throw CommandFailure(
          "cannot run '\(error.command)': \(String(cString: strerror(error.code)))",
          hint: notFound ? "Check the command's name and PATH." : nil,
          exitCode: ExitCode(notFound ? 127 : 126))
      }
      while true {
        if let status = child.poll() {
          // The state is written whatever the command's status; a failure to write it
          // is exec's own (73), even when the command succeeded.
          try snapshots.stop(emulator)
          throw ExitCode(status)
        }
        let (signal, isFromProcess) = signals.wait()
        // A terminal's Ctrl-C or hangup already reached the child (same process group).
        if signal != SIGCHLD && isFromProcess { child.send(signal) }
      }
    }
  }
}
