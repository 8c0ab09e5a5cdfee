import TPNSProtocol
import Testing

@testable import TPNSEmulator

@Suite("ValidatedRequest: a /tpns request's parameters, judged")
struct ValidatedRequestTests {
  @Test("a request's values are found by their parameters")
  func lookUp() throws {
    let form = try FormParameters(
      decoding: Array("cmd=client&token=ab&os=ios&udid=u&appid=a&dev=1&osver=17".utf8))
    var conformance = Conformance(isStrict: false)
    let request = try ValidatedRequest(form, conformance: &conformance)
    #expect(request.command == .client)
    #expect(request[.os] == "ios")
    #expect(request[.token] == "ab")
    #expect(request[.lang] == nil)
    #expect(request.integer(.dev) == 1)
    #expect(request.others.map(\.name) == ["osver"])
  }

  @Test(
    "the first name given twice is refused, a parameter's or another",
    arguments: [
      ("cmd=client&os=ios&x=1&os=android", "os"),
      ("cmd=client&x=1&y=2&x=3&os=ios&os=ios", "x"),
      ("x=1&cmd=client&cmd=client", "cmd"),
      (
        (0..<20).map { "p\($0)=1" }.joined(separator: "&") + "&cmd=client&p3=2&os=ios&os=ios",
        "p3"
      ),
    ])
  func duplicates(form: String, name: String) throws {
    var conformance = Conformance(isStrict: false)
    let error = #expect(throws: RequestError.self) {
      try ValidatedRequest(FormParameters(decoding: Array(form.utf8)), conformance: &conformance)
    }
    #expect(error?.reason == "parameter '\(name)' is given more than once")
  }
}
