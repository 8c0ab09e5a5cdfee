import TPNSProtocol
import Testing

@testable import TPNSKit

@Suite struct TPNSRequestHTTPTests {
  static let uid = try! DeviceUID("ABCDEFGHIJKLMNOPQRST")

  @Test("POST sends the form body with its content type; GET puts it in the URL")
  func requests() {
    let request = TPNSRequest.device(uid: Self.uid)
    let post = request.httpRequest(server: "http://h/tpns", method: .post)
    #expect(post.method == .post)
    #expect(post.url == "http://h/tpns")
    #expect(String(decoding: post.body, as: UTF8.self) == "cmd=device&uid=ABCDEFGHIJKLMNOPQRST")
    #expect(post.contentType == "application/x-www-form-urlencoded")
    let get = request.httpRequest(server: "http://h/tpns", method: .get)
    #expect(get.url == "http://h/tpns?cmd=device&uid=ABCDEFGHIJKLMNOPQRST")
    #expect(get.body.isEmpty)
  }
}
