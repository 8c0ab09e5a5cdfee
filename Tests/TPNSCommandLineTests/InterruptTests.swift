import Foundation
import TPNSTestSupport
import Testing

/// Ctrl-C or SIGTERM while a one-shot command waits on a server: it says what
/// is stored and pending and what to run next (with `--json`, the document,
/// `"interrupted": true`), then ends by the signal, as a shell expects.
@Suite struct InterruptTests {
  static let uid = "ABCDEFGHJKLMNPRSTUVW"

  /// Runs `tpns add UID` with `arguments` against a server that never
  /// answers, sends `signal` once the UID is stored, and returns how it
  /// ended and what it printed.
  static func interruptedAdd(
    _ arguments: [String], signal: Int32
  ) throws -> (process: Process, stdout: String, stderr: String) {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register"], environment: ["TPNS_TOKEN": EndToEnd.token]).status == 0)
    let silent = try SilentListener()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TPNSProcess.binary)
    process.arguments = ["add", uid, "--timeout", "60"] + arguments
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
    let stored = WatchTests.eventually(within: .seconds(20)) {
      (try? e2e.store.load().uids.contains(uid)) == true
    }
    #expect(stored)
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
    "Ctrl-C during add says that the stored change is pending and to run tpns sync",
    .timeLimit(.minutes(1)))
  func text() throws {
    let (process, stdout, stderr) = try Self.interruptedAdd([], signal: SIGINT)
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
}
