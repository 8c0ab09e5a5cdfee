import Foundation
import TPNSTestSupport
import Testing

/// A crash ends the process at once, so that a service manager restarts it:
/// the Swift runtime's backtracer, which handles these signals otherwise,
/// waited forever in a `tpns watch` (its libdispatch threads block every
/// signal), so `Restart=on-failure` never fired.
@Suite struct FatalSignalTests {
  @Test(
    "a tpns watch that gets a fatal signal ends by it within 10 s",
    .timeLimit(.minutes(1)), arguments: [SIGSEGV, SIGABRT, SIGBUS])
  func watchEnds(signal: Int32) throws {
    let directory = try TemporaryDirectory()
    let tpns = TPNSProcess(store: directory.file("state.plist"), server: "http://127.0.0.1:1/tpns")
    #expect(try tpns.run(["add", "--no-sync", "ABCDEFGHJKLMNPRSTUVW"]).status == 0)
    let watch = try WatchTests.startWatch(tpns)
    #expect(WatchTests.holdsLock(watch, of: tpns.store))
    #expect(kill(watch.processIdentifier, signal) == 0)
    let ended = WatchTests.eventually(within: .seconds(10)) { !watch.isRunning }
    if !ended {
      kill(watch.processIdentifier, SIGKILL)
      watch.waitUntilExit()
    }
    #expect(ended)
    #expect(watch.terminationReason == .uncaughtSignal)
    #expect(watch.terminationStatus == signal)
  }

  @Test(
    "a tpns-server that gets a fatal signal ends by it within 10 s",
    .timeLimit(.minutes(1)), arguments: [SIGSEGV, SIGABRT])
  func serverEnds(signal: Int32) throws {
    let directory = try TemporaryDirectory()
    let portFile = directory.file("port")
    let server = Process()
    server.executableURL = URL(fileURLWithPath: TPNSProcess.binary)
      .deletingLastPathComponent().appendingPathComponent("tpns-server")
    server.arguments = ["--port", "0", "--port-file", portFile]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    server.standardInput = FileHandle.nullDevice
    try server.run()
    #expect(
      WatchTests.eventually(within: .seconds(10)) { contents(of: portFile)?.isEmpty == false })
    #expect(kill(server.processIdentifier, signal) == 0)
    let ended = WatchTests.eventually(within: .seconds(10)) { !server.isRunning }
    if !ended {
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
    }
    #expect(ended)
    #expect(server.terminationReason == .uncaughtSignal)
    #expect(server.terminationStatus == signal)
  }
}
