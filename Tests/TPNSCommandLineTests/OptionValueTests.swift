import Foundation
import TPNSEmulator
import TPNSProtocol
import TPNSTestSupport
import Testing

/// Option values that start with `-`, and values checked before anything is
/// sent: an event's message, the `--cacert` file.
@Suite struct OptionValueTests {
  static let a = "ABCDEFGHJKLMNPRSTUVW"
  static let b = "0123456789ABCDEFGHJK"

  /// The `msg` of each notification the emulator recorded for the test's phone.
  static func messages(_ e2e: EndToEnd) throws -> [String?] {
    let notifications =
      try e2e.server.inspect("notifications?udid=\(EndToEnd.token)")["notifications"]
      as? [[String: Any]] ?? []
    return notifications.map { $0["msg"] as? String }
  }

  @Test("add --from - reads the UIDs from standard input, as the help says")
  func fromStandardInput() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    let result = try e2e.tpns.run(
      viaShell: "printf '\(Self.a)\\n\(Self.b)\\n' | \"$0\" add --from -")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("added \(Self.a)\nadded \(Self.b)\nsynced 2 UIDs"))
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.a, Self.b])
  }

  @Test(
    "a message that starts with '-' is the message",
    arguments: [
      (["--message", "-10 degrees"], "-10 degrees"),
      (["--message", "--json"], "--json"),
      (["--message=-x", "--type", "3"], "-x"),
    ])
  func dashMessage(options: [String], message: String) throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["add", Self.a]).status == 0)
    let result = try e2e.tpns.run(["event", Self.a] + options)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "sent event: 200 ok: 1 notification\n")
    #expect(try Self.messages(e2e) == [message])
  }

  @Test(
    "a negative number where a positive one is wanted is an invalid value, not a missing one",
    arguments: [
      (
        ["watch", "--debounce", "-5"],
        "The value '-5' is invalid for '--debounce <ms>': it must be a whole number of "
          + "milliseconds from 0 to 600000"
      ),
      (
        ["add", Self.a, "--timeout", "-1"],
        "The value '-1' is invalid for '--timeout <seconds>': it must be a number of seconds "
          + "above 0, up to 3600"
      ),
      (
        ["event", Self.a, "--time", "-1"],
        "The value '-1' is invalid for '--time <epoch>': it must be a whole number of seconds "
          + "since 1970, 0 or more"
      ),
      (
        ["event", Self.a, "--type", "-5"],
        "The value '-5' is invalid for '--type <n>': it must be a whole number from 0 to "
          + "2147483647"
      ),
      (["watch", "--debounce", "--json"], "Missing value for '--debounce <ms>'"),
    ])
  func negativeValue(arguments: [String], message: String) throws {
    let tpns = TPNSProcess(store: "/nonexistent/state.plist", server: "http://127.0.0.1:1/tpns")
    let result = try tpns.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("Error: \(message)\nUsage: tpns "))
  }

  @Test("an empty message is no message: the event is sent without msg")
  func emptyMessage() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["add", Self.a]).status == 0)
    let result = try e2e.tpns.run(["event", Self.a, "--message", ""])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Self.messages(e2e) == [nil])
    #expect(try e2e.server.requests().last?.raw == "cmd=event&uid=\(Self.a)&event_type=1")
  }

  @Test(
    "a message the server would refuse is refused here (65, with what to do), and nothing is sent",
    arguments: [
      (
        String(repeating: "a", count: 4097),
        "it has 4097 characters, at most 4096 are allowed (an empty --message sends none)"
      ),
      (
        String(repeating: "é", count: 5000),
        "it has 5000 characters, at most 4096 are allowed (an empty --message sends none)"
      ),
      ("bell\u{07}", "it has U+0007 at position 5, which is not allowed"),
    ])
  func refusedMessage(message: String, reason: String) throws {
    let e2e = try EndToEnd()
    let before = try e2e.server.requests().count
    let result = try e2e.tpns.run(["event", Self.a, "--message", message])
    #expect(result.status == 65)
    #expect(
      result.stderr == "Error: invalid message: \(reason)\n"
        + "Give a message of at most 4096 characters; newlines and tabs are allowed, "
        + "other control characters are not.\n")
    #expect(try e2e.server.requests().count == before)
  }

  @Test("a message of 4096 characters, with a newline and a tab, is sent as is")
  func longestMessage() throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["add", Self.a]).status == 0)
    let message = "line 1\n\tline 2 " + String(repeating: "x", count: 4096 - 15)
    #expect(message.unicodeScalars.count == EventMessageSyntax.lengths.upperBound)
    let result = try e2e.tpns.run(["event", Self.a, "--message", message])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Self.messages(e2e) == [message])
  }

  @Test(
    "a --cacert file that cannot be read is a bad argument (66), reported before anything is stored or sent",
    arguments: [["sync"], ["add", Self.b], ["event", Self.a], ["register", EndToEnd.token]])
  func unreadableCACertificate(arguments: [String]) throws {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["add", Self.a]).status == 0)
    let store = contents(of: e2e.tpns.store)
    let requests = try e2e.server.requests().count
    // A FIFO no one writes to: refused at once, not waited on.
    let fifo = e2e.directory.file("ca.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    let reasons = [
      "/missing.pem": "No such file or directory", e2e.directory.path: "it is a directory",
      fifo: "it is not a regular file (libcurl reads it again for each connection)",
    ]
    for file in ["/missing.pem", e2e.directory.path, fifo] {
      let result = try e2e.tpns.run(arguments + ["--cacert", file])
      #expect(result.status == 66)
      let reason = reasons[file] ?? ""
      #expect(
        result.stderrWithoutWarnings
          == "Error: cannot read the CA certificate file \(file): \(reason)\n"
          + "Pass a readable PEM file of CA certificates with --cacert or TPNS_CACERT.\n")
    }
    #expect(contents(of: e2e.tpns.store) == store)
    #expect(try e2e.server.requests().count == requests)
  }

  @Test("TPNS_CACERT is read as --cacert; an explicit --cacert wins; empty, a usage error")
  func caCertificateVariable() throws {
    let e2e = try EndToEnd()
    let unreadable = try e2e.tpns.run(
      ["register", EndToEnd.token], environment: ["TPNS_CACERT": "/missing.pem"])
    #expect(unreadable.status == 66)
    #expect(
      unreadable.stderrWithoutWarnings.hasPrefix(
        "Error: cannot read the CA certificate file /missing.pem: No such file or directory\n"))
    let explicit = try e2e.tpns.run(
      ["register", EndToEnd.token, "--cacert", "/other.pem"],
      environment: ["TPNS_CACERT": "/missing.pem"])
    #expect(explicit.status == 66)
    #expect(
      explicit.stderrWithoutWarnings.hasPrefix(
        "Error: cannot read the CA certificate file /other.pem: "))
    let empty = try e2e.tpns.run(["register", EndToEnd.token], environment: ["TPNS_CACERT": ""])
    #expect(empty.status == 64)
    #expect(
      empty.stderrWithoutWarnings.hasPrefix(
        "Error: TPNS_CACERT is set but empty: set it to a path (not empty), or unset it for the "
          + "default\n"))
    #expect(try e2e.server.requests().isEmpty)
  }
}
