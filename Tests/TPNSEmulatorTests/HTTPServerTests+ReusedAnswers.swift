import Foundation
import Testing

@testable import TPNSEmulator

/// A keep-alive connection is sent its last small answer again when the next one is
/// the same (the response object libmicrohttpd built is kept and queued again): every
/// answer must still be the one its request deserves.
extension HTTPServerTests {
  @Test("one keep-alive connection: repeated, changed and refused answers each as sent")
  func reusedAnswers() throws {
    let server = try TestEmulator()
    let form =
      "cmd=client&os=ios&appid=com.example.app&udid=phone-1&token=\(String(repeating: "ab", count: 32))"
    func post(_ body: String, close: Bool = false) -> String {
      "POST /tpns HTTP/1.1\r\nHost: localhost\r\n" + (close ? "Connection: close\r\n" : "")
        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)"
        + "\r\n\r\n\(body)"
    }
    let requests =
      post(form) + post(form) + post(form) + post("cmd=nope") + post("cmd=nope") + post(form)
      + "HEAD /tpns HTTP/1.1\r\nHost: localhost\r\n\r\n" + post(form, close: true)
    let received = try RawHTTPClient.roundTrip(port: server.port, Array(requests.utf8))
    let replies = String(decoding: received, as: UTF8.self).components(separatedBy: "HTTP/1.1 ")
      .dropFirst()
      .map { reply -> String in
        let parts = reply.components(separatedBy: "\r\n\r\n")
        let length = parts[0].components(separatedBy: "\r\n")
          .first { $0.lowercased().hasPrefix("content-length:") }
          .map { $0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces) }
        return "\(parts[0].prefix(3)) \(length ?? "-") \(parts.dropFirst().joined())"
      }
    let unknown =
      "error: unknown cmd 'nope' (known: client, mapsync, mapping, rm_mapping, unreg_mapping, "
      + "device, event, hello; older: reg_client, reg_mapping, reg_server, raise_event)\n"
    #expect(
      replies == [
        "200 26 200 ok: client registered\n", "200 23 200 ok: client updated\n",
        "200 23 200 ok: client updated\n", "400 \(unknown.utf8.count) \(unknown)",
        "400 \(unknown.utf8.count) \(unknown)", "200 23 200 ok: client updated\n",
        "200 0 ", "200 23 200 ok: client updated\n",
      ])
    // Each was run and logged.
    let log = try server.inspect("requests").json as? [String: Any]
    #expect((log?["requests"] as? [[String: Any]])?.count == 8)
  }
}
