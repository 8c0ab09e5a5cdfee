import FoundationEssentials
import TPNSProtocol
import Testing

@Suite("MapPayload")
struct MapPayloadTests {
  static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

  @Test(
    "the payload is Foundation's base64 of the JSON for every padding (0, 1 or 2 '=') and a format to escape",
    arguments: [0, 1, 2, 3, 4, 5, 6, 7])
  func paddings(count: Int) throws {
    let uids = (0..<count).map { "UID" + String(repeating: "0", count: 16) + String($0) }
    var entries = uids.map { MapEntry(uid: $0) }
    if count > 0 { entries[0].format = "a\"b\u{7F}é" }
    if count > 1 { entries[1].interval = 300 }
    let json =
      "["
      + entries.map { entry in
        #"{"uid":""# + entry.uid + "\""
          + (entry.interval.map { #","interval":"# + String($0) } ?? "")
          + (entry.format.map { #","format":"# + JSONString.quoted($0) } ?? "") + "}"
      }.joined(separator: ",") + "]"
    #expect(MapPayload.encode(entries: entries) == Self.base64(json))
    #expect(try MapPayload.decode(entries: MapPayload.encode(entries: entries)).entries == entries)
  }

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

  @Test(
    "a character that is not base64 is named at its offset wherever it is, after whole groups too",
    arguments: [4, 5, 6, 7, 40, 41, 42, 43])
  func badCharacterAfterGroups(offset: Int) {
    var text = Array(Self.base64(String(repeating: "[{}]", count: 10)).utf8)
    text[offset] = UInt8(ascii: "*")
    #expect(throws: MapPayloadError.base64("'*' at offset \(offset) is not a base64 character")) {
      try MapPayload.decode(String(decoding: text, as: UTF8.self))
    }
  }

  @Test(
    "entries written compactly read as the general reader reads them, among other shapes",
    arguments: [
      // Compact, then spaced, then a 20-byte value to escape or not ASCII.
      #"[{"uid":"ABCDEFGHJKLMNPRSTUVW"},{"uid":"0123456789ABCDEFGHJK"}]"#,
      #"[{"uid":"ABCDEFGHJKLMNPRSTUVW"}, { "uid":"0123456789ABCDEFGHJK" }]"#,
      #"[{"uid":"ABCDEFGHJKLMNPRSTU\""},{"uid":"ABCDEFGHJKLMNPRSTUVW"}]"#,
      #"[{"uid":"ABCDEFGHJKLMNP\u0041"},{"uid":"ABCDEFGHJKLMNPRSTUVW"}]"#,
      #"[{"uid":"ABCDEFGHJKLMNPRSTU\u0041"}]"#,
      #"[{"uid":"ABCDEFGHJKLMNPRSTUVé"}]"#,
      #"[{"uid":"ABCDEFGHJKLMNPRSTUVW","interval":3}]"#,
      #"[{"uid":"ABCDEFGHJKLMNPRSTUVW"},{"uid":"ABCDEFGHJKLMNPRSTUVWX"}]"#,
      #"[{"uid":"SHORT"},{"uid":"ABCDEFGHJKLMNPRSTUVW"}]"#,
    ])
  func compactEntries(json: String) throws {
    // The general reader's answer: the same JSON with a space after each
    // `{`, which no entry read by word compares has.
    let spaced = json.replacing("{", with: "{ ")
    let compact = try MapPayload.decode(entries: Self.base64(json))
    let general = try MapPayload.decode(entries: Self.base64(spaced))
    #expect(compact.entries == general.entries)
    #expect(compact.irregularities == general.irregularities)
    #expect(!compact.entries.isEmpty)
  }

  @Test("refuses bytes that are not JSON", arguments: ["[{", "nope", "", "[{\"uid\":\"A\"},]x"])
  func notJSON(text: String) {
    let error = #expect(throws: MapPayloadError.self) { try MapPayload.decode(Self.base64(text)) }
    guard case .json = error else {
      Issue.record("expected a JSON error, got \(String(describing: error))")
      return
    }
  }

  @Test("decode reads the entries a canonical client sends, interval and format included")
  func canonicalEntries() throws {
    let entries = [
      MapEntry(uid: "ABCDEFGHJKLMNPRSTUVW", interval: 3),
      MapEntry(uid: "0123456789ABCDEFGHIJ", format: "e21zZ30="),
      MapEntry(uid: "ZYXWVUTSRPNMLKJHGFED"),
    ]
    let text = MapPayload.encode(entries: entries)
    let decoded = try MapPayload.decode(entries: text)
    #expect(decoded.entries == entries)
    #expect(decoded.otherKeys == [[:], [:], [:]])
    #expect(decoded.irregularities == [])
    #expect(try MapPayload.decode(text) == entries.map(\.uid))
  }

  @Test("decode(entries:) keeps other keys and reports them once, over all entries")
  func otherKeys() throws {
    let json =
      #"[{"uid":"A","name":"Front door","ch":1},{"uid":"B"},{"uid":"C","tags":["x",null],"#
      + #""on":true,"at":{"h":1.5}}]"#
    let decoded = try MapPayload.decode(entries: Self.base64(json))
    #expect(decoded.entries.map(\.uid) == ["A", "B", "C"])
    #expect(decoded.otherKeys[0] == ["name": .string("Front door"), "ch": .integer(1)])
    #expect(decoded.otherKeys[1] == [:])
    #expect(
      decoded.otherKeys[2] == [
        "tags": .array([.string("x"), .null]), "on": .bool(true),
        "at": .object(["h": .number(1.5)]),
      ])
    #expect(
      JSONValue.object(decoded.otherKeys[2]).compactText
        == #"{"at":{"h":1.5},"on":true,"tags":["x",null]}"#)
    #expect(
      decoded.irregularities == [
        .otherKeys(entries: [0, 2], keys: ["at", "ch", "name", "on", "tags"])
      ])
    #expect(
      decoded.irregularities.first?.description
        == "map entries 0, 2 have keys besides uid, interval and format: at, ch, name, on, tags")
    #expect(throws: MapPayloadError.self) { try MapPayload.decode(Self.base64(json)) }
  }

  @Test(
    "decode(entries:) takes an interval it can read and ignores one it cannot",
    arguments: [
      (#""3""#, 3, true),
      ("-1", -1, true),
      ("4294967296", 4_294_967_296, true),
      ("3", 3, false),
      ("3.5", nil, true),
      ("null", nil, true),
      ("true", nil, true),
      (#""soon""#, nil, true),
    ] as [(String, Int?, Bool)])
  func interval(json: String, taken: Int?, isIrregular: Bool) throws {
    let decoded = try MapPayload.decode(entries: Self.base64(#"[{"uid":"A","interval":\#(json)}]"#))
    #expect(decoded.entries == [MapEntry(uid: "A", interval: taken)])
    #expect(
      decoded.irregularities
        == (isIrregular ? [.interval(entry: 0, found: json, takenAs: taken)] : []))
  }

  @Test("decode(entries:) ignores a format that is not a string")
  func formatNotString() throws {
    let decoded = try MapPayload.decode(entries: Self.base64(#"[{"uid":"A","format":{"a":1}}]"#))
    #expect(decoded.entries == [MapEntry(uid: "A")])
    #expect(decoded.irregularities == [.format(entry: 0, found: #"{"a":1}"#)])
    #expect(
      decoded.irregularities.first?.description
        == #"map entry 0 has a format {"a":1} that is not a string (ignored)"#)
  }

  @Test(
    "decode(entries:) skips line breaks (Android's Base64.DEFAULT) and reports them",
    arguments: ["\n", "\r\n"])
  func lineBreaks(separator: String) throws {
    let uids = ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHIJ", "ZYXWVUTSRPNMLKJHGFED"]
    let text = MapPayload.encode(uids)
    let wrapped = String(text.prefix(76)) + separator + String(text.dropFirst(76)) + separator
    let decoded = try MapPayload.decode(entries: wrapped)
    #expect(decoded.entries.map(\.uid) == uids)
    #expect(decoded.irregularities == [.lineBreaks])
    #expect(throws: MapPayloadError.base64("it is broken into lines")) {
      try MapPayload.decode(wrapped)
    }
  }

  @Test(
    "decode(entries:) still refuses what is not an array of objects with a string uid",
    arguments: [
      ("[{}]", #"expected a JSON array of {"uid": "..."} objects, found an empty object"#),
      ("[{\"id\":\"A\"}]", #"expected a JSON array of {"uid": "..."} objects, found keys id"#),
      (
        "[{\"uid\":null}]",
        #"expected a JSON array of {"uid": "..."} objects, found a "uid" that is not a string"#
      ),
      (
        "[[]]",
        #"expected a JSON array of {"uid": "..."} objects, found an element that is not an object"#
      ),
      ("{}", #"expected a JSON array of {"uid": "..."} objects"#),
    ])
  func refusesShapes(json: String, reason: String) {
    #expect(throws: MapPayloadError.shape(reason)) {
      try MapPayload.decode(entries: Self.base64(json))
    }
  }

  @Test(
    "refuses bytes that are not JSON before looking at their shape, naming the byte",
    arguments: [
      ("[{", "expected a string key or '}' at offset 2, found the end"),
      ("", "expected a value at offset 0, found the end"),
      ("{\"uid\":", "expected a value at offset 7, found the end"),
      ("[1, {", "expected a string key or '}' at offset 5, found the end"),
      (#"[{"uid":"A"},]"#, "expected a value at offset 13, found ']'"),
      (#"[{"uid":"A",}]"#, "expected a string key at offset 12, found '}'"),
      (#"[{"id":1},"#, "expected a value at offset 10, found the end"),
      (#"[{"uid":"A"}] x"#, "expected the end at offset 14, found 'x'"),
      (#"[{"uid":"\ud800"}]"#, #"'\ud800' at offset 9 is a lone surrogate"#),
      ("[{\"uid\":\"A\tB\"}]", "control character U+0009 at offset 10 is not escaped in a string"),
      (#"[{"uid":"A","ch":01}]"#, "the number at offset 17 has a leading zero"),
      (#"[{"uid":"A","ch":1.}]"#, "expected a digit at offset 19, found '}'"),
    ])
  func notJSONReason(json: String, reason: String) {
    #expect(throws: MapPayloadError.json(reason)) {
      try MapPayload.decode(entries: Self.base64(json))
    }
  }

  @Test("the first element that is not an entry is the one named")
  func firstShapeError() {
    #expect(
      throws: MapPayloadError.shape(
        #"expected a JSON array of {"uid": "..."} objects, found an element that is not an object"#)
    ) { try MapPayload.decode(entries: Self.base64(#"[{"uid":"A"},[],{}]"#)) }
    #expect(
      throws: MapPayloadError.shape(
        #"expected a JSON array of {"uid": "..."} objects, found keys a, b"#)
    ) { try MapPayload.decode(entries: Self.base64(#"[{"uid":"A"},{"b":1,"a":2,"b":3},[]]"#)) }
  }

  @Test("the first of duplicate keys wins, as JSONDecoder read them")
  func duplicateKeys() throws {
    #expect(try MapPayload.decode(Self.base64(#"[{"uid":"A","uid":"B"}]"#)) == ["A"])
    #expect(throws: MapPayloadError.self) {
      try MapPayload.decode(Self.base64(#"[{"uid":1,"uid":"A"}]"#))
    }
    let decoded = try MapPayload.decode(
      entries: Self.base64(#"[{"uid":"A","interval":3,"interval":"x","ch":1,"ch":2}]"#))
    #expect(decoded.entries == [MapEntry(uid: "A", interval: 3)])
    #expect(decoded.otherKeys == [["ch": .integer(1)]])
  }

  @Test(
    "an interval JSONDecoder read as an integer (3.0, 1e2) still is one",
    arguments: [
      ("3.0", 3, nil),
      ("1e2", 100, nil),
      ("-0.0", 0, nil),
      ("1e10", 10_000_000_000, "10000000000"),
      ("1e400", nil, "null"),
      ("9.3e18", nil, "9.3e+18"),
    ] as [(String, Int?, String?)])
  func wholeNumberInterval(json: String, taken: Int?, found: String?) throws {
    let decoded = try MapPayload.decode(entries: Self.base64(#"[{"uid":"A","interval":\#(json)}]"#))
    #expect(decoded.entries == [MapEntry(uid: "A", interval: taken)])
    #expect(
      decoded.irregularities
        == (found.map { [.interval(entry: 0, found: $0, takenAs: taken)] } ?? []))
  }

  @Test("keeps a number JSON allows but a Double cannot hold (1e400) as null")
  func hugeNumber() throws {
    let decoded = try MapPayload.decode(
      entries: Self.base64(#"[{"uid":"A","x":1e400,"y":[-1e400,1],"z":1e-400}]"#))
    #expect(
      decoded.otherKeys == [["x": .null, "y": .array([.null, .integer(1)]), "z": .number(0)]])
  }

  @Test("skips a leading byte order mark, as JSONDecoder did")
  func byteOrderMark() throws {
    #expect(try MapPayload.decode(Self.base64("\u{FEFF}[{\"uid\":\"A\"}]")) == ["A"])
  }

  @Test("decodes 10,000 entries, escapes and all")
  func large() throws {
    let entries = (0..<10_000).map {
      MapEntry(
        uid: "BIG" + String(repeating: "0", count: 17 - String($0).count) + String($0),
        interval: $0 % 3 == 0 ? $0 : nil, format: $0 % 5 == 0 ? "e3siYSI6ICLDqSJ9\n" : nil)
    }
    let decoded = try MapPayload.decode(entries: MapPayload.encode(entries: entries))
    #expect(decoded.entries == entries)
    #expect(decoded.irregularities == [])
  }
}
