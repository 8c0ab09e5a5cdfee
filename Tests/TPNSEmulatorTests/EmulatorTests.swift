import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSEmulator

@Suite("Emulator: lifecycle and persistence")
struct EmulatorTests {
  @Test("start on port 0 picks a free port and reports the service URL")
  func freePort() throws {
    let emulator = Emulator()
    try emulator.start(port: 0)
    defer { emulator.stop() }
    #expect(emulator.port != 0)
    #expect(emulator.baseURL == "http://127.0.0.1:\(emulator.port)/tpns")
    #expect(emulator.isRunning)
  }

  @Test("two emulators run side by side on different ports")
  func sideBySide() throws {
    let first = try TestEmulator()
    let second = try TestEmulator()
    #expect(first.port != second.port)
    try first.registerIOS()
    #expect(try first.clients().count == 1)
    #expect(try second.clients().isEmpty)
  }

  @Test("stop closes the port and is idempotent")
  func stop() throws {
    let emulator = Emulator()
    try emulator.start(port: 0)
    let port = emulator.port
    emulator.stop()
    emulator.stop()
    #expect(emulator.port == 0)
    #expect(emulator.baseURL == nil)
    #expect(throws: (any Error).self) { try RawHTTPClient.send(port: port, target: "/tpns") }
  }

  @Test("starting twice, or on a port in use, fails with a reason")
  func startFailures() throws {
    let emulator = Emulator()
    try emulator.start(port: 0)
    defer { emulator.stop() }
    #expect(throws: EmulatorError.alreadyRunning) { try emulator.start(port: 0) }
    let other = Emulator()
    let error = #expect(throws: EmulatorError.self) { try other.start(port: emulator.port) }
    guard case .cannotListen(let host, let port, _) = error else {
      Issue.record("expected cannotListen, got \(String(describing: error))")
      return
    }
    #expect(host == "127.0.0.1")
    #expect(port == emulator.port)
    #expect(!other.isRunning)
  }

  @Test(
    "a --host that is no address of this machine, or a name that does not resolve, says so",
    arguments: ["nosuch.invalid", "192.0.2.1"])
  func hostNotHere(host: String) {
    let error = #expect(throws: EmulatorError.self) { try Emulator().start(host: host, port: 0) }
    #expect(
      error?.description
        == "cannot listen on \(host):0: it is not an address of this machine, nor a name that "
        + "resolves to one")
  }

  @Test("a database that cannot be opened is reported")
  func badDatabase() {
    let emulator = Emulator()
    let path = "/nonexistent/dir/registry.sqlite"
    let error = #expect(throws: EmulatorError.self) {
      try emulator.start(port: 0, database: path)
    }
    guard case .database(let reported, _) = error else {
      Issue.record("expected database, got \(String(describing: error))")
      return
    }
    #expect(reported == path)
    #expect(!emulator.isRunning)
  }

  @Test("--db: the registry survives a restart on the same file")
  func persistence() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry.sqlite")

    let uids = [TestEmulator.uid(3), TestEmulator.uid(1)]
    let before: String
    do {
      let server = try TestEmulator(database: path)
      let token = try server.registerIOS()
      let reply = try server.post(
        "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map=\(TestEmulator.map(uids))"
      )
      #expect(reply.status == 200)
      _ = try server.get("cmd=event&uid=\(uids[0])&event_type=1")
      before = try server.registryText()
      server.emulator.stop()
    }
    let server = try TestEmulator(database: path)
    #expect(try server.registryText() == before)
    #expect(try server.uids(of: TestEmulator.token(1)) == uids)
    let notifications = try server.inspect("notifications").json as? [String: Any]
    #expect((notifications?["notifications"] as? [Any])?.count == 1)
    let health = try server.inspect("health").json as? [String: Any]
    #expect(health?["database"] as? String == path)
  }
}
