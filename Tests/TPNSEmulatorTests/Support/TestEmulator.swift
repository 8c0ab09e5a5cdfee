import Foundation
import TPNSProtocol

@testable import TPNSEmulator

/// An emulator started on a free port for one test, with helpers to talk to it over
/// real HTTP and read its inspection endpoints.
final class TestEmulator {
  let emulator: Emulator
  let port: UInt16

  static let appid = "com.tutk.cc.samples.tpns.ios"

  /// `warning` receives the emulator's warnings and `logger` its request lines (see
  /// ``Emulator/init(logger:warning:)``); `strict` and `allowBrowser` start it as
  /// `--strict` and `--allow-browser` do.
  init(
    database: String? = nil, strict: Bool = false, allowBrowser: Bool = false,
    logger: Emulator.Logger? = nil, warning: Emulator.Logger? = nil
  ) throws {
    emulator = Emulator(logger: logger, warning: warning)
    try emulator.start(port: 0, database: database, strict: strict, allowBrowser: allowBrowser)
    port = emulator.port
  }

  deinit { emulator.stop() }

  /// `GET /tpns?query`.
  func get(_ query: String) throws -> HTTPReply {
    try RawHTTPClient.send(port: port, target: "/tpns?\(query)")
  }

  /// `POST /tpns` with a form body.
  func post(_ body: String) throws -> HTTPReply {
    try RawHTTPClient.send(port: port, method: "POST", target: "/tpns", body: Array(body.utf8))
  }

  /// Sends `query` with `method` (GET: as the query; POST: as the body).
  func send(_ method: Method, _ query: String) throws -> HTTPReply {
    method == .get ? try get(query) : try post(query)
  }

  enum Method: String, CaseIterable, CustomStringConvertible {
    case get = "GET"
    case post = "POST"
    var description: String { rawValue }
  }

  /// A request (GET unless `method` says otherwise) to an inspection endpoint, e.g.
  /// `registry`.
  func inspect(_ path: String, method: String = "GET") throws -> HTTPReply {
    try RawHTTPClient.send(port: port, method: method, target: "/_emulator/\(path)")
  }

  /// The registry as JSON text (compared whole to prove nothing changed).
  func registryText() throws -> String { try inspect("registry").body }

  /// The registry's clients.
  func clients() throws -> [[String: Any]] { try registry("clients") }

  /// One list of the registry: `clients`, `mappings` or `devices`.
  func registry(_ list: String) throws -> [[String: Any]] {
    (try inspect("registry").json as? [String: Any])?[list] as? [[String: Any]] ?? []
  }

  /// The recorded notifications, oldest first.
  func notifications() throws -> [[String: Any]] {
    (try inspect("notifications").json as? [String: Any])?["notifications"] as? [[String: Any]]
      ?? []
  }

  /// The request log's entries, oldest first.
  func requests() throws -> [[String: Any]] {
    (try inspect("requests").json as? [String: Any])?["requests"] as? [[String: Any]] ?? []
  }

  /// The warnings of the newest logged request.
  func lastWarnings() throws -> [String] {
    try requests().last?["warnings"] as? [String] ?? []
  }

  /// The UIDs mapped to `udid`, in list order.
  func uids(of udid: String) throws -> [String] {
    let mappings =
      (try inspect("registry").json as? [String: Any])?["mappings"] as? [[String: Any]] ?? []
    return mappings.filter { $0["udid"] as? String == udid }.compactMap { $0["uid"] as? String }
  }

  /// Registers an iOS phone the quickstart's way; returns its token (also its udid).
  @discardableResult
  func registerIOS(token: String = TestEmulator.token(1)) throws -> String {
    let reply = try get("cmd=client&os=ios&appid=\(Self.appid)&udid=\(token)&token=\(token)")
    guard reply.status == 200 else {
      throw RawHTTPClient.Failure(description: "cmd=client answered \(reply.status): \(reply.body)")
    }
    return token
  }

  /// A 64-hex iOS token made from `number`.
  static func token(_ number: Int) -> String {
    let hex = String(number, radix: 16)
    return String(repeating: "0", count: 64 - hex.count) + hex
  }

  /// A device UID made from `number`.
  static func uid(_ number: Int) -> String {
    let digits = String(number)
    return "ABCDEFGHJK" + String(repeating: "0", count: 10 - digits.count) + digits
  }

  /// The `map` value for `uids`, percent-encoded for a form.
  static func map(_ uids: [String]) -> String { percentEncoded(MapPayload.encode(uids)) }

  /// `text` with everything but unreserved characters percent-encoded.
  static func percentEncoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }
}
