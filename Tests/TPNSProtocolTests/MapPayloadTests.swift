import FoundationEssentials
import TPNSProtocol
import Testing

@Suite("MapPayload")
struct MapPayloadTests {
  static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

  @Test("encodes compact JSON in list order, padded standard base64")
  func encodes() {
    #expect(MapPayload.encode([]) == "W10=")
    let uids = ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHIJ"]
    #expect(
      MapPayload.encode(uids)
        == Self.base64(#"[{"uid":"ABCDEFGHJKLMNPRSTUVW"},{"uid":"0123456789ABCDEFGHIJ"}]"#))
  }

  @Test(
    "round-trips lists of every small length", arguments: [0, 1, 2, 3, 4, 5, 17])
  func roundTrip(count: Int) throws {
    let uids = (0..<count).map { "ABCDEFGHJK" + String(repeating: String($0 % 10), count: 10) }
    #expect(try MapPayload.decode(MapPayload.encode(uids)) == uids)
  }

  @Test(
    "decodes any JSON whitespace and spaces for '+'",
    arguments: [
      "[\n  {\n    \"uid\" : \"ABCDEFGHJKLMNPRSTUVW\"\n  }\n]",
      "[ { \"uid\" : \"ABCDEFGHJKLMNPRSTUVW\" } ]",
      "\t[{\"uid\":\r\n\"ABCDEFGHJKLMNPRSTUVW\"}]\n",
    ])
  func lenient(json: String) throws {
    #expect(try MapPayload.decode(Self.base64(json)) == ["ABCDEFGHJKLMNPRSTUVW"])
  }

  @Test("takes a space as the '+' a lax encoder turned into one")
  func spaceIsPlus() throws {
    // ASCII JSON has a '+' in its base64 only for a '>' or '~' at an offset of 2 mod 3
    // (so never for real UIDs); find such a value.
    let value = try #require(
      ["A>", "AA>", "AAA>"].first { Self.base64("[{\"uid\":\"\($0)\"}]").contains("+") })
    let encoded = Self.base64("[{\"uid\":\"\(value)\"}]")
    #expect(try MapPayload.decode(encoded.replacing("+", with: " ")) == [value])
  }

  @Test("keeps duplicates and order (deduplicating is the server's job)")
  func keepsDuplicates() throws {
    let uids = ["B", "A", "B"]
    #expect(try MapPayload.decode(MapPayload.encode(uids)) == uids)
  }

  @Test(
    "refuses with a reason",
    arguments: [
      ("W10", MapPayloadError.base64("its length 3 is not a multiple of 4")),
      ("W1*=", .base64("'*' at offset 2 is not a base64 character")),
      ("W=0=", .base64("'=' at offset 1 is not at the end")),
      ("W10-", .base64("'-' at offset 3 is not a base64 character")),
      (base64("{\"uid\":\"A\"}"), .shape(#"expected a JSON array of {"uid": "..."} objects"#)),
      (
        base64("[\"A\"]"),
        .shape(
          #"expected a JSON array of {"uid": "..."} objects, found an element that is not an object"#
        )
      ),
      (
        base64("[{\"id\":\"A\"}]"),
        .shape(#"expected a JSON array of {"uid": "..."} objects, found keys id"#)
      ),
      (
        base64("[{\"uid\":1}]"),
        .shape(
          #"expected a JSON array of {"uid": "..."} objects, found a "uid" that is not a string"#)
      ),
    ])
  func refuses(text: String, expected: MapPayloadError) {
    #expect(throws: expected) { try MapPayload.decode(text) }
  }

  @Test("refuses bytes that are not JSON", arguments: ["[{", "nope", "", "[{\"uid\":\"A\"},]x"])
  func notJSON(text: String) {
    let error = #expect(throws: MapPayloadError.self) { try MapPayload.decode(Self.base64(text)) }
    guard case .json = error else {
      Issue.record("expected a JSON error, got \(String(describing: error))")
      return
    }
  }
}
