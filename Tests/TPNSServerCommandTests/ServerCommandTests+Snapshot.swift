import Foundation
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSServerCommand

#if canImport(Glibc)
  import Glibc
#endif

extension ServerCommandTests {
  static let phone = "os=android&appid=com.example.app&udid=phone-1"

  /// The snapshot file at `path`, decoded.
  static func snapshot(_ path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test(
    "--export-on-exit writes the state when a signal stops the server (Ctrl-C, SIGTERM, SIGHUP)",
    arguments: [SIGINT, SIGTERM, SIGHUP])
  func exportOnSignal(signal: Int32) throws {
    let directory = try TemporaryDirectory()
    let exported = directory.file("state.json")
    let (child, port) = try Self.start(
      database: directory.file("registry.sqlite"), in: directory, "server",
      ["--export-on-exit", exported])
    _ = try Self.curl([
      "-d", "cmd=client&\(Self.phone)&token=fcm-1", "http://127.0.0.1:\(port)/tpns",
    ])
    _ = try Self.curl([
      "-d", "cmd=mapping&\(Self.phone)&uid=\(Self.activated)&interval=60",
      "http://127.0.0.1:\(port)/tpns",
    ])
    child.send(signal)
    #expect(Self.status(of: child) == 0)
    let state = try Self.snapshot(exported)
    #expect(state["version"] as? Int == 1)
    #expect((state["clients"] as? [[String: Any]])?.first?["token"] as? String == "fcm-1")
    let mapping = (state["mappings"] as? [[String: Any]])?.first
    #expect(mapping?["uid"] as? String == Self.activated)
    #expect(mapping?["interval"] as? Int == 60)
    var status = stat()
    #expect(stat(exported, &status) == 0 && status.st_mode & 0o777 == 0o600)
  }

  @Test("--import starts from a snapshot, and exporting it again gives the same document")
  func importRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let first = directory.file("first.json")
    let script = """
      curl -s -d "cmd=client&\(Self.phone)&token=fcm-1" "$TPNS_SERVER" >/dev/null
      curl -s -d "cmd=mapping&\(Self.phone)&uid=\(Self.activated)&format=jpg" "$TPNS_SERVER" >/dev/null
      curl -s -d "cmd=device&uid=\(Self.activated)&model=cam" "$TPNS_SERVER" >/dev/null
      curl -s -d "cmd=event&uid=\(Self.activated)&event_type=2&msg=door" "$TPNS_SERVER" >/dev/null
      """
    let made = try Self.run([
      "exec", "--quiet", "--whitelist", try Self.whitelistFile(in: directory),
      "--export-on-exit", first, "sh", "-c", script,
    ])
    #expect(made.status == 0, "\(made.stderr)")
    let second = directory.file("second.json")
    let again = try Self.run([
      "exec", "--quiet", "--import", first, "--export-on-exit", second, "sh", "-c",
      "curl -fsS \"${TPNS_SERVER%/tpns}/_emulator/registry\"",
    ])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("\"uid\" : \"\(Self.activated)\""))
    #expect(try Data(contentsOf: URL(fileURLWithPath: first)).count > 0)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: first))
        == (try Data(contentsOf: URL(fileURLWithPath: second))))
    let state = try Self.snapshot(second)
    #expect(state["whitelist"] as? [String] == [Self.activated])
    #expect((state["notifications"] as? [[String: Any]])?.first?["msg"] as? String == "door")
  }

  static func whitelistFile(in directory: TemporaryDirectory) throws -> String {
    let file = directory.file("whitelist.txt")
    try "\(activated)\n".write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  @Test(
    "exec writes --export-on-exit whatever the command's status, and exits with it")
  func execExportsOnFailure() throws {
    let directory = try TemporaryDirectory()
    let exported = directory.file("state.json")
    let result = try Self.run([
      "exec", "--quiet", "--export-on-exit", exported, "sh", "-c",
      "curl -s -d 'cmd=device&uid=\(Self.other)' \"$TPNS_SERVER\" >/dev/null; exit 3",
    ])
    #expect(result.status == 3)
    #expect((try Self.snapshot(exported)["devices"] as? [[String: Any]])?.count == 1)
  }

  @Test("exec exits 73 when --export-on-exit cannot be written, though the command succeeded")
  func execExportFailure() throws {
    let directory = try TemporaryDirectory()
    let result = try Self.run([
      "exec", "--quiet", "--export-on-exit", directory.file("missing/state.json"), "true",
    ])
    #expect(result.status == 73)
    #expect(result.stderr.hasPrefix("Error: --export-on-exit: cannot write"), "\(result.stderr)")
  }

  @Test(
    "--import of a file that is not a snapshot is exit 65 naming what is wrong; of none, 66",
    arguments: [
      (
        "{\"version\": 2, \"clients\": [], \"mappings\": [], \"devices\": [], \"notifications\": []}",
        65, "version 2 is not one this emulator reads"
      ),
      ("{\"version\": 1}", 65, "clients: it is missing"),
      ("not json", 65, "not a snapshot document"),
      (nil, 66, "cannot read"),
    ] as [(String?, Int32, String)])
  func importRefused(text: String?, status: Int32, message: String) throws {
    let directory = try TemporaryDirectory()
    let file = directory.file("state.json")
    if let text { try text.write(toFile: file, atomically: true, encoding: .utf8) }
    let result = try Self.run(["--port", "0", "--quiet", "--import", file])
    #expect(result.status == status)
    #expect(result.stderr.hasPrefix("Error: "))
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test("an --import file others may write is refused (66) before anything starts")
  func importUntrusted() throws {
    let directory = try TemporaryDirectory()
    let file = directory.file("seed.json")
    let empty = #"{"version":1,"clients":[],"mappings":[],"devices":[],"notifications":[]}"#
    try empty.write(toFile: file, atomically: true, encoding: .utf8)
    chmod(file, 0o666)
    let result = try Self.run(["exec", "--quiet", "--import", file, "true"])
    #expect(result.status == 66)
    #expect(result.stderr.contains("writable by group or others"), "\(result.stderr)")
  }

  @Test("exec refuses an --export-on-exit it could not write before running the command (73)")
  func exportCheckedFirst() throws {
    let directory = try TemporaryDirectory()
    let ran = directory.file("ran")
    for target in [directory.path, directory.file("missing/state.json")] {
      let result = try Self.run([
        "exec", "--quiet", "--export-on-exit", target, "sh", "-c", "touch '\(ran)'",
      ])
      #expect(result.status == 73)
      #expect(result.stderr.hasPrefix("Error: --export-on-exit: "), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: ran))
    }
  }

  @Test("--export-on-exit to a FIFO is refused (73) before the command runs, and left a FIFO")
  func exportToFIFO() throws {
    let directory = try TemporaryDirectory()
    let fifo = directory.file("fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    let ran = directory.file("ran")
    let result = try Self.run([
      "exec", "--quiet", "--export-on-exit", fifo, "sh", "-c", "touch '\(ran)'",
    ])
    #expect(result.status == 73)
    #expect(result.stderr.contains("is not a regular file"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: ran))
    var status = stat()
    #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
  }

  @Test("exec writes --export-on-exit even when its command cannot be found (127)")
  func exportWhenNotFound() throws {
    let directory = try TemporaryDirectory()
    let exported = directory.file("state.json")
    let result = try Self.run([
      "exec", "--quiet", "--export-on-exit", exported, "/nonexistent/command",
    ])
    #expect(result.status == 127)
    #expect(try Self.snapshot(exported)["version"] as? Int == 1)
  }
}
