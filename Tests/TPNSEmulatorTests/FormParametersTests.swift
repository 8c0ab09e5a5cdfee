import Testing

@testable import TPNSEmulator

@Suite("FormParameters: strict form decoding")
struct FormParametersTests {
  @Test(
    "decodes names and values",
    arguments: [
      ("a=1&b=2", [["a", "1"], ["b", "2"]]),
      ("a=x+y", [["a", "x y"]]),
      ("a=%2B%2F%3D", [["a", "+/="]]),
      ("a=%e6%97%a5", [["a", "日"]]),
      ("a=", [["a", ""]]),
      ("a=1&&b=2&", [["a", "1"], ["b", "2"]]),
      ("a=1=2", [["a", "1=2"]]),
      ("", []),
      // Runs between escapes and '+' are copied whole: escapes and '+' at
      // either end, next to each other, and apart.
      ("a=%41bc+d%2Be+%20f%41", [["a", "Abc d+e  fA"]]),
      ("a=+%41+xyz%42%43+", [["a", " A xyzBC "]]),
      // Plain values are tested 8 bytes at a time: '+', '%' and UTF-8 in either
      // word of a 16-byte value, and in its last bytes past them.
      ("v=0123456+89abcdef", [["v", "0123456 89abcdef"]]),
      ("v=01234567+9abcdef", [["v", "01234567 9abcdef"]]),
      ("v=0123456789abcde%41", [["v", "0123456789abcdeA"]]),
      ("v=0123456789abcdef0+", [["v", "0123456789abcdef0 "]]),
      ("v=0123456789abcdef日", [["v", "0123456789abcdef日"]]),
      ("v=01日23456789abcdef", [["v", "01日23456789abcdef"]]),
      ("longer_name_of_16=0123456789abcdef", [["longer_name_of_16", "0123456789abcdef"]]),
    ])
  func decodes(input: String, expected: [[String]]) throws {
    let form = try FormParameters(decoding: Array(input.utf8))
    #expect(form.pairs.map { [$0.name, $0.value] } == expected)
  }

  @Test(
    "refuses what is not a well-formed form",
    arguments: [
      ("a=%", "parameter 'a' has a bad percent-escape '%'"),
      ("a=%4", "parameter 'a' has a bad percent-escape '%4'"),
      ("a=%G1", "parameter 'a' has a bad percent-escape '%G1'"),
      ("a=%FF", "parameter 'a' is not valid UTF-8"),
      ("%FF=1", "a parameter name is not valid UTF-8"),
      ("=1", "a parameter has an empty name"),
      ("flag", "parameter 'flag' has no '=' and no value"),
    ])
  func refuses(input: String, reason: String) {
    let error = #expect(throws: RequestError.self) {
      try FormParameters(decoding: Array(input.utf8))
    }
    #expect(error?.status == 400)
    #expect(error?.reason == reason)
  }

  @Test("refuses bytes that are not UTF-8 in a value without escapes, at any offset")
  func refusesRawInvalidUTF8() {
    for offset in [0, 7, 8, 15, 16, 17] {
      var bytes = Array("v=".utf8) + Array(repeating: UInt8(ascii: "x"), count: 18)
      bytes[2 + offset] = 0xFF
      let error = #expect(throws: RequestError.self) { try FormParameters(decoding: bytes) }
      #expect(error?.reason == "parameter 'v' is not valid UTF-8", "offset \(offset)")
    }
  }

  @Test("reports the first duplicated name")
  func duplicates() throws {
    let form = try FormParameters(decoding: Array("a=1&b=2&a=3".utf8))
    #expect(form.firstDuplicateName == "a")
    #expect(form["a"] == "1")
  }

  @Test(
    "recognises the form media type",
    arguments: [
      ("application/x-www-form-urlencoded", true),
      ("Application/X-WWW-Form-URLEncoded; charset=UTF-8", true),
      ("  application/x-www-form-urlencoded ;charset=utf-8", true),
      ("\tapplication/x-www-form-urlencoded\t", true),
      ("application/x-www-form-urlencode", false),
      ("application/json", false),
      ("multipart/form-data; boundary=x", false),
      ("", false),
    ])
  func mediaType(contentType: String, isForm: Bool) {
    #expect(FormDecoding.isForm(contentType) == isForm)
  }

  @Test("refuses more than maximumCount pairs without decoding the rest")
  func tooManyPairs() throws {
    let fine = (0..<FormParameters.maximumCount).map { "p\($0)=1" }.joined(separator: "&")
    #expect(try FormParameters(decoding: Array(fine.utf8)).pairs.count == 100)
    let error = #expect(throws: RequestError.self) {
      try FormParameters(decoding: Array((fine + "&one=more").utf8))
    }
    #expect(error?.status == 400)
    #expect(error?.reason == "more than 100 parameters")
  }

  @Test("a /tpns body of 100,000 parameters is refused for their number")
  func hugeParameterCount() throws {
    let server = try TestEmulator()
    let token = TestEmulator.token(1)
    let body =
      "cmd=client&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&token=\(token)&"
      + (0..<100_000).map { "p\($0)=1" }.joined(separator: "&")
    let reply = try server.post(body)
    #expect(reply.status == 400)
    #expect(reply.body == "error: more than 100 parameters\n")
    #expect(try server.clients().isEmpty)
  }
}

@Suite("FormParameters: a long value decodes as it was encoded")
struct FormParametersLongValueTests {
  @Test("a 400 KB base64 map, percent-encoded, decodes to the same text")
  func longValue() throws {
    // Every byte value once, then base64 letters: '+', '/' and '=' are escaped.
    let text = String(repeating: "QUJD+/9=", count: 50_000) + "end"
    var encoded = ""
    for character in text {
      switch character {
      case "+": encoded += "%2B"
      case "/": encoded += "%2F"
      case "=": encoded += "%3D"
      default: encoded.append(character)
      }
    }
    let form = try FormParameters(decoding: Array("map=\(encoded)&cmd=mapsync".utf8))
    #expect(form.pairs.map(\.value) == [text, "mapsync"])
  }
}
