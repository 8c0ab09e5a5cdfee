import Foundation
import TPNSKit
import TPNSProtocol
import TPNSTestSupport
import Testing

/// `tpns device`, and `--legacy` on `event` and `device`: the older form camera
/// firmware sends (the legacy path, the older names), so that a firmware author
/// reproduces what a camera sends, and the `-v` trace shows it.
@Suite struct LegacyFormTests {
  static let uid = "ABCDEFGHJKLMNPRSTUVW"

  /// The newest logged request: method, path, the `cmd` as sent, status.
  static func lastRequest(_ e2e: EndToEnd) throws -> (String?, String?, String?, Int?) {
    let entries = try e2e.server.inspect("requests")["requests"] as? [[String: Any]] ?? []
    let last = entries.last
    return (
      last?["method"] as? String, last?["path"] as? String,
      (last?["params"] as? [String: Any])?["cmd"] as? String, last?["status"] as? Int
    )
  }

  @Test("tpns device announces the UID: the registry's devices hold it, exit 0")
  func deviceAnnounces() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["device", Self.uid.lowercased()])
    #expect(result.status == 0)
    #expect(result.stdout == "sent device: 200 ok: device \(Self.uid) announced\n")
    #expect(result.stderr == "")
    let devices = try e2e.server.inspect("registry")["devices"] as? [[String: Any]]
    #expect(devices?.map { $0["uid"] as? String } == [Self.uid])
    #expect(try Self.lastRequest(e2e) == ("POST", "/tpns", "device", 200))
  }

  struct Case: Sendable, CustomStringConvertible {
    var arguments: [String]
    var method: String
    var name: String
    var description: String { arguments.joined(separator: " ") }
  }

  @Test(
    "--legacy sends to /apns/apns.php with the older name, by the method asked; -v shows it",
    arguments: [
      Case(
        arguments: ["device", uid, "--legacy", "--method", "get"], method: "GET", name: "reg_server"
      ),
      Case(arguments: ["device", uid, "--legacy"], method: "POST", name: "reg_server"),
      Case(
        arguments: [
          "event", uid, "--type", "2", "--time", "1700000000", "--legacy", "--method", "get",
        ],
        method: "GET", name: "raise_event"),
      Case(arguments: ["event", uid, "--legacy"], method: "POST", name: "raise_event"),
    ])
  func legacy(_ test: Case) throws {
    let e2e = try EndToEnd(strict: false)
    let result = try e2e.tpns.run(test.arguments + ["-v"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try Self.lastRequest(e2e) == (test.method, "/apns/apns.php", test.name, 200))
    let base = e2e.server.server.replacingOccurrences(of: "/tpns", with: "/apns/apns.php")
    let trace = result.stderr.split(separator: "\n").first { $0.hasPrefix("> ") }
    if test.method == "GET", test.name == "raise_event" {
      #expect(
        trace
          == "> GET \(base)?cmd=raise_event&uid=\(Self.uid)&event_type=2&event_time=1700000000 (cmd=raise_event)"
      )
    } else if test.method == "GET" {
      #expect(trace == "> GET \(base)?cmd=reg_server&uid=\(Self.uid) (cmd=reg_server)")
    } else {
      #expect(trace == "> POST \(base) (cmd=\(test.name))")
    }
  }

  @Test("a legacy event pushes to the mapped phone as a current one does")
  func legacyEventPushes() throws {
    let e2e = try EndToEnd(strict: false)
    #expect(try e2e.tpns.run(["register"], environment: ["TPNS_TOKEN": EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["add", Self.uid]).status == 0)
    let result = try e2e.tpns.run([
      "event", Self.uid, "--legacy", "--method", "get", "--message", "hi",
    ])
    #expect(result.status == 0)
    let notifications =
      try e2e.server.inspect("notifications?udid=\(EndToEnd.token)")["notifications"]
      as? [[String: Any]]
    #expect(notifications?.map { $0["msg"] as? String } == ["hi"])
  }

  @Test("--strict refuses the older form: exit 76 with the server's reason")
  func strictRefuses() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["device", Self.uid, "--legacy"])
    #expect(result.status == 76)
    #expect(
      result.stderr.contains(
        "path '/apns/apns.php' is the legacy path of the service (/tpns)"), "\(result.stderr)")
    #expect((try e2e.server.inspect("registry")["devices"] as? [[String: Any]])?.isEmpty == true)
  }

  @Test("tpns device with an invalid UID exits 65 and sends nothing")
  func invalidUID() throws {
    let e2e = try EndToEnd()
    let result = try e2e.tpns.run(["device", "short", "--legacy"])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("Error: invalid UID 'short'"), "\(result.stderr)")
    #expect(try e2e.server.requests().isEmpty)
  }

  @Test(
    "the legacy path is the server's /tpns replaced, credentials and query kept",
    arguments: [
      (
        "https://push.iotcplatform.com:7380/tpns",
        "https://push.iotcplatform.com:7380/apns/apns.php"
      ),
      ("http://127.0.0.1:8080/tpns", "http://127.0.0.1:8080/apns/apns.php"),
      ("http://me:pw@host/proxy/tpns?key=k", "http://me:pw@host/proxy/apns/apns.php?key=k"),
      ("http://host/other", "http://host/apns/apns.php"),
      ("http://host", "http://host/apns/apns.php"),
    ])
  func legacyService(server: String, expected: String) {
    #expect(ServerURL(server).legacyService == expected)
  }

  @Test("legacyParameters: cmd is the older name where there is one, the rest as sent")
  func legacyParameters() throws {
    let uid = try DeviceUID(Self.uid)
    let event = TPNSRequest.event(uid: uid, type: 1, message: nil, time: 5)
    #expect(event.legacyParameters.map(\.value) == ["raise_event", Self.uid, "1", "5"])
    #expect(event.legacyParameters.map(\.name) == event.parameters.map(\.name))
    let phone = Phone(os: .ios, appID: "a.b", udid: String(repeating: "0f", count: 32))
    let sync = TPNSRequest.mapsync(phone, uids: [uid])
    #expect(sync.legacyParameters.first?.value == "mapsync")
  }
}
