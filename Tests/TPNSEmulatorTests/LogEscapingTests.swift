import Foundation
import Locking
import TPNSTestSupport
import Testing

@testable import TPNSEmulator

/// The emulator's log lines go to a terminal: a control character a request carries
/// (an OSC that retitles the window, a CSI that clears the screen, a bare CR that
/// overwrites the line with a forged one) is written escaped, as `\u{1b}`.
@Suite("log lines: control characters from requests are escaped")
struct LogEscapingTests {
  /// Whether `text` has a C0 or C1 control character or DEL (a newline included).
  static func hasControl(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
  }

  @Test(
    "a method with control characters is escaped in the log line and in the 405",
    arguments: [
      ("G\u{1B}]0;pwned\u{07}ET", #"G\u{1b}]0;pwned\u{7}ET"#),
      ("GET\u{1B}[2J", #"GET\u{1b}[2J"#),
      ("P\rOST", #"P\u{d}OST"#),
      ("P\u{9B}2JOST", #"P\u{9b}2JOST"#),
    ])
  func method(method: String, escaped: String) throws {
    let lines = LockedState<[String]>([])
    let server = try TestEmulator(logger: { line in lines.withLock { $0.append(line) } })
    for path in ["/tpns", "/_emulator/health"] {
      let reply = try RawHTTPClient.send(port: server.port, method: method, target: path)
      #expect(reply.status == 405)
      #expect(reply.body.hasPrefix("error: method \(escaped) is not allowed here"))
      #expect(!Self.hasControl(reply.body.dropLast().description))
    }
    let logged = lines.withLock { $0 }
    #expect(logged.count == 2)
    #expect(logged.allSatisfy { !Self.hasControl($0) })
    #expect(logged.allSatisfy { $0.contains(" \(escaped) /") })
  }

  @Test("a path and a cmd with control characters are escaped in the log line")
  func pathAndCommand() throws {
    let lines = LockedState<[String]>([])
    let server = try TestEmulator(logger: { line in lines.withLock { $0.append(line) } })
    _ = try RawHTTPClient.send(port: server.port, target: "/tpns\u{1B}[2J?cmd=x")
    _ = try server.get("cmd=%1B%5D0%3Bpwned%07%0D2026-12-01T00:00:00.000Z+GET+/tpns+200")
    let logged = lines.withLock { $0 }
    #expect(logged.count == 2)
    #expect(logged.allSatisfy { !Self.hasControl($0) })
    #expect(logged.last?.contains(#"cmd=\u{1b}]0;pwned\u{7}\u{d}2026"#) == true)
  }

  @Test("a warning naming a file with control characters is escaped")
  func warning() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("registry\u{1B}[2J\r.sqlite")
    let warnings = LockedState<[String]>([])
    let server = try TestEmulator(
      database: path, warning: { line in warnings.withLock { $0.append(line) } })
    try FileManager.default.removeItem(atPath: path)
    let token = TestEmulator.token(1)
    let reply = try server.get(
      "cmd=client&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&token=\(token)")
    #expect(reply.status == 503)
    let warned = warnings.withLock { $0 }
    #expect(warned.count == 1)
    #expect(warned.allSatisfy { !Self.hasControl($0) })
    #expect(warned.first?.contains(#"registry\u{1b}[2J\u{d}.sqlite' was deleted"#) == true)
  }
}
