import Foundation
import TPNSTestSupport
import Testing

/// Ctrl-C or SIGTERM while a one-shot command waits on a server: it says what
/// is stored and pending and what to run next (with `--json`, the document,
/// `"interrupted": true`), then ends by the signal, as a shell expects.
@Suite struct InterruptTests {
  static let uid = "ABCDEFGHJKLMNPRSTUVW"
  /// `event`'s next step: it stores nothing, and its request may have arrived.
  static let eventHint = "The event may have reached the server: run it again only if no push came."

  /// Runs `tpns` with `arguments` (and `--timeout 60`), a token registered,
  /// against a server that never answers; sends `signal` once `ready` holds
  /// (the store's `e2e`, the `listener`), and returns how it ended and what
  /// it printed. `ignoringSIGINT`: it starts with SIGINT ignored, as `nohup`
  /// or a shell's background job leaves it.
  static func interrupted(
    _ arguments: [String], signal: Int32, ignoringSIGINT: Bool = false,
    when ready: (_ e2e: EndToEnd, _ listener: SilentListener) -> Bool
  ) throws -> (process: Process, stdout: String, stderr: String) {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register"], environment: ["TPNS_TOKEN": EndToEnd.token]).status == 0)
    let silent = try SilentListener()
    let process = Process()
    let command = arguments + ["--timeout", "60"]
    if ignoringSIGINT {
      // The shell's `exec` keeps the ignored SIGINT for tpns, in the same process.
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", #"trap '' INT; exec "$0" "$@""#, TPNSProcess.binary] + command
    } else {
      process.executableURL = URL(fileURLWithPath: TPNSProcess.binary)
      process.arguments = command
    }
    process.environment = TPNSProcess.environment(
      store: e2e.tpns.store, server: "http://127.0.0.1:\(silent.port)/tpns")
    let output = e2e.directory.file("stdout")
    let errors = e2e.directory.file("stderr")
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    _ = FileManager.default.createFile(atPath: errors, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
    process.standardInput = FileHandle.nullDevice
    try process.run()
    #expect(WatchTests.eventually(within: .seconds(20)) { ready(e2e, silent) })
    #expect(process.isRunning, "it did not wait for the server")
    kill(process.processIdentifier, signal)
    let ended = WatchTests.eventually(within: .seconds(10)) { !process.isRunning }
    if !ended {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    #expect(ended)
    return (
      process, String(decoding: contents(of: output) ?? Data(), as: UTF8.self),
      String(decoding: contents(of: errors) ?? Data(), as: UTF8.self)
    )
  }

  /// `tpns add UID` with `arguments`, interrupted by `signal` once the UID is
  /// stored and its mapsync waits on the server (so `added` has been printed:
  /// a signal between the store's write and that line would find nothing
  /// printed yet, which is true but not what this suite checks).
  static func interruptedAdd(
    _ arguments: [String], signal: Int32, ignoringSIGINT: Bool = false
  ) throws -> (process: Process, stdout: String, stderr: String) {
    try interrupted(["add", uid] + arguments, signal: signal, ignoringSIGINT: ignoringSIGINT) {
      e2e, listener in
      listener.hasWaitingConnection && (try? e2e.store.load().uids.contains(uid)) == true
    }
  }

  /// `tpns event UID` with `arguments`, interrupted by `signal` once it has
  /// connected to the server.
  static func interruptedEvent(
    _ arguments: [String], signal: Int32, ignoringSIGINT: Bool = false
  ) throws -> (process: Process, stdout: String, stderr: String) {
    try interrupted(["event", uid] + arguments, signal: signal, ignoringSIGINT: ignoringSIGINT) {
      _, listener in listener.hasWaitingConnection
    }
  }

  @Test(
    "SIGINT or SIGTERM during add --json prints the document: interrupted, the stored UID pending, the next step",
    .timeLimit(.minutes(1)), arguments: [SIGINT, SIGTERM])
  func json(signal: Int32) throws {
    let (process, stdout, stderr) = try Self.interruptedAdd(["--json"], signal: signal)
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signal)
    let document = try JSONDocumentTests.document(stdout)
    #expect(document["interrupted"] as? Bool == true)
    #expect(document["ok"] as? Bool == false)
    #expect(document["exit_code"] as? Int == 128 + Int(signal))
    #expect(document["uids"] as? [String] == [Self.uid])
    #expect(document["pending"] as? Bool == true)
    #expect(document["next"] as? String == "tpns sync")
    #expect(
      document["hint"] as? String
        == "Run 'tpns sync' to send it ('tpns status' shows what is pending).")
    #expect(stderr.contains("Error: interrupted by SIG"), "\(stderr)")
  }

  @Test(
    "Ctrl-C during add says that the stored change is pending and to run tpns sync, also with SIGINT inherited ignored",
    .timeLimit(.minutes(1)), arguments: [false, true])
  func text(ignoringSIGINT: Bool) throws {
    let (process, stdout, stderr) = try Self.interruptedAdd(
      [], signal: SIGINT, ignoringSIGINT: ignoringSIGINT)
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGINT)
    #expect(stdout.hasPrefix("added \(Self.uid)\n"))
    #expect(
      stderr.contains(
        "Error: interrupted by SIGINT; what is stored is pending at http://127.0.0.1:"),
      "\(stderr)")
    #expect(
      stderr.contains(
        "/tpns: it was not all sent\nRun 'tpns sync' to send it ('tpns status' shows what is pending).\n"
      ), "\(stderr)")
  }

  @Test(
    "SIGINT or SIGTERM during event --json prints the document: interrupted, nothing stored, the event perhaps sent",
    .timeLimit(.minutes(1)), arguments: [SIGINT, SIGTERM])
  func eventJSON(signal: Int32) throws {
    let (process, stdout, stderr) = try Self.interruptedEvent(["--json"], signal: signal)
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signal)
    let document = try JSONDocumentTests.document(stdout)
    #expect(document["command"] as? String == "event")
    #expect(document["interrupted"] as? Bool == true)
    #expect(document["ok"] as? Bool == false)
    #expect(document["exit_code"] as? Int == 128 + Int(signal))
    #expect((document["outcomes"] as? [Any])?.isEmpty == true)
    let errors = document["errors"] as? [String] ?? []
    #expect(errors.count == 1, "\(errors)")
    #expect(errors.first?.hasPrefix("interrupted by SIG") == true, "\(errors)")
    #expect(errors.first?.hasSuffix("/tpns answered; nothing was stored") == true, "\(errors)")
    #expect(document["hint"] as? String == Self.eventHint)
    #expect(stderr.contains("Error: interrupted by SIG"), "\(stderr)")
  }

  @Test(
    "Ctrl-C during event says that nothing was stored and the event may have been sent, also with SIGINT inherited ignored",
    .timeLimit(.minutes(1)), arguments: [false, true])
  func eventText(ignoringSIGINT: Bool) throws {
    let (process, stdout, stderr) = try Self.interruptedEvent(
      ["--message", "hello"], signal: SIGINT, ignoringSIGINT: ignoringSIGINT)
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGINT)
    #expect(stdout.isEmpty, "\(stdout)")
    #expect(
      stderr.hasPrefix("Error: interrupted by SIGINT before http://127.0.0.1:"), "\(stderr)")
    #expect(
      stderr.hasSuffix("/tpns answered; nothing was stored\n\(Self.eventHint)\n"), "\(stderr)")
  }
}
