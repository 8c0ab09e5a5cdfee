import Foundation
import Testing

@testable import TPNSEmulator

/// `/_emulator/faults` as a list of chaos rules: by command, by chance with a seed,
/// delayed, dropped; the request log names the rule that answered.
@Suite("Inspector: chaos rules through /_emulator/faults")
struct FaultRulesTests {
  static func arm(_ server: TestEmulator, _ query: String) throws -> HTTPReply {
    try server.inspect("faults?\(query)", method: "POST")
  }

  static func statuses(_ server: TestEmulator, _ commands: [String]) throws -> [Int] {
    let token = TestEmulator.token(1)
    let phone = "os=ios&appid=\(TestEmulator.appid)&udid=\(token)"
    return try commands.map { command in
      switch command {
      case "client": return try server.post("cmd=client&\(phone)&token=\(token)").status
      case "mapsync":
        return try server.post(
          "cmd=mapsync&\(phone)&map=\(TestEmulator.map([TestEmulator.uid(1)]))"
        )
        .status
      default: return try server.post("cmd=\(command)").status
      }
    }
  }

  @Test("a rule for one cmd answers only it, its count of times; other requests pass")
  func byCommand() throws {
    let server = try TestEmulator()
    #expect(try Self.arm(server, "status=503&count=2&cmd=mapsync").status == 200)
    #expect(
      try Self.statuses(server, ["client", "mapsync", "hello", "mapsync", "mapsync"])
        == [200, 503, 200, 503, 200])
  }

  @Test("rules are matched in order, and GET lists them with what each has left")
  func listed() throws {
    let server = try TestEmulator()
    _ = try Self.arm(server, "status=503&count=1&cmd=mapsync")
    _ = try Self.arm(server, "status=500&count=3&retry_after=2")
    #expect(try Self.statuses(server, ["client"]) == [500])
    let json = try #require(try server.inspect("faults").json as? [String: Any])
    let rules = try #require(json["rules"] as? [[String: Any]])
    #expect(rules.map { $0["id"] as? Int } == [1, 2])
    #expect(rules.map { $0["remaining"] as? Int } == [1, 2])
    #expect(rules.map { $0["hits"] as? Int } == [0, 1])
    #expect(rules.first?["cmd"] as? String == "mapsync")
    #expect(rules.last?["cmd"] is NSNull)
    // `fault` is the first rule, in the shape a single fault had.
    let fault = try #require(json["fault"] as? [String: Any])
    #expect(fault.keys.sorted() == ["remaining", "retry_after", "status"])
    #expect(fault["status"] as? Int == 503)
    #expect(fault["remaining"] as? Int == 1)
    #expect(fault["retry_after"] is NSNull)
  }

  @Test("a rule with a probability and a seed hits the same requests in any run")
  func seededProbability() throws {
    var runs: [[Int]] = []
    for _ in 0..<2 {
      let server = try TestEmulator()
      let armed = try Self.arm(server, "status=503&probability=0.25&seed=7")
      let rule = ((armed.json as? [String: Any])?["rules"] as? [[String: Any]])?.first
      #expect(rule?["seed"] as? Int == 7)
      #expect(rule?["remaining"] is NSNull)  // with a chance: until disarmed
      runs.append(try Self.statuses(server, Array(repeating: "hello", count: 40)))
    }
    #expect(runs[0] == runs[1])
    #expect(runs[0].contains(503) && runs[0].contains(200), "\(runs[0])")
  }

  @Test("delay_ms holds the answer, then answers as usual (or with the status)")
  func delayed() throws {
    let server = try TestEmulator()
    _ = try Self.arm(server, "delay_ms=300&cmd=hello")
    let started = ContinuousClock.now
    #expect(try Self.statuses(server, ["hello"]) == [200])
    #expect(ContinuousClock.now - started >= .milliseconds(300))
    // Used up: a rule without a count takes one request.
    let rules = (try server.inspect("faults").json as? [String: Any])?["rules"] as? [Any]
    #expect(rules?.count == 0)
  }

  @Test("drop=1 closes the connection without an answer; the log names the rule")
  func dropped() throws {
    let server = try TestEmulator()
    _ = try Self.arm(server, "drop=1")
    let body = Array("cmd=hello".utf8)
    let request =
      "POST /tpns HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
      + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.count)\r\n\r\n"
    #expect(try RawHTTPClient.roundTrip(port: server.port, Array(request.utf8) + body).isEmpty)
    let entry = try #require(try server.requests().last)
    #expect(entry["status"] as? Int == 0)
    #expect(entry["fault_rule"] as? Int == 1)
    #expect((entry["error"] as? String)?.hasPrefix("connection dropped by fault rule 1") == true)
    #expect(try Self.statuses(server, ["hello"]) == [200])
    #expect(try server.requests().last?["fault_rule"] is NSNull)
    let dropped = try server.inspect("requests/count?status=0")
    #expect((dropped.json as? [String: Any])?["count"] as? Int == 1)
  }

  @Test(
    "a bad rule is a 400 naming the parameter and what it must be, and arms nothing",
    arguments: [
      ("count=2", "missing parameter 'status' (400 to 599), or 'delay_ms'"),
      ("status=503&probability=2", "parameter 'probability' must be a number above 0"),
      ("status=503&probability=nan", "parameter 'probability' must be a number above 0"),
      ("status=503&seed=7", "parameter 'seed' goes with 'probability'"),
      ("drop=2", "parameter 'drop' must be 1 or 0"),
      ("drop=1&status=503", "parameter 'drop' closes the connection"),
      ("delay_ms=100&retry_after=1", "parameter 'retry_after' goes with 'status'"),
      ("delay_ms=70000", "parameter 'delay_ms' must be an integer from 0 to 60000"),
      ("status=503&cmd=", "parameter 'cmd' must name a command"),
    ] as [(String, String)])
  func refused(query: String, message: String) throws {
    let server = try TestEmulator()
    let reply = try Self.arm(server, query)
    #expect(reply.status == 400)
    #expect(reply.body.hasPrefix("error: \(message)"), "\(reply.body)")
    #expect(try Self.statuses(server, ["hello"]) == [200])
  }
}
