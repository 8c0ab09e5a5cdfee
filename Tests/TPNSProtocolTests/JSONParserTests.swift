import FoundationEssentials
import TPNSProtocol
import Testing

@Suite("JSONValue(parsing:)")
struct JSONParserTests {
  @Test(
    "reads every kind of value",
    arguments: [
      ("null", JSONValue.null),
      ("true", .bool(true)),
      ("false", .bool(false)),
      ("0", .integer(0)),
      ("-0", .integer(0)),
      ("42", .integer(42)),
      ("-42", .integer(-42)),
      ("9223372036854775807", .integer(.max)),
      ("-9223372036854775808", .integer(.min)),
      ("9223372036854775808", .number(0x1p63)),
      ("-9223372036854775809", .number(-0x1p63)),
      ("123456789012345678901234567890", .number(1.2345678901234568e29)),
      ("1.5", .number(1.5)),
      ("-0.0", .number(-0.0)),
      ("1.0", .number(1)),
      ("1e2", .number(100)),
      ("1E+2", .number(100)),
      ("25e-1", .number(2.5)),
      ("0.1", .number(0.1)),
      ("1e-400", .number(0)),
      ("1e400", .null),
      ("-1e400", .null),
      (#""""#, .string("")),
      (#""abc""#, .string("abc")),
      (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
      (#""\u0041\u00e9\u00E9\u20AC""#, .string("Aéé€")),
      (#""\u0000""#, .string("\u{0}")),
      (#""\ud83d\ude00""#, .string("😀")),
      (#""\uDBFF\uDFFF""#, .string("\u{10FFFF}")),
      ("\"é€😀\"", .string("é€😀")),
      ("\"\u{7F}\"", .string("\u{7F}")),
      ("[]", .array([])),
      ("{}", .object([:])),
      ("[1,\"a\",null,[true]]", .array([.integer(1), .string("a"), .null, .array([.bool(true)])])),
      (#"{"a":{"b":[]},"c":2.5}"#, .object(["a": .object(["b": .array([])]), "c": .number(2.5)])),
      (" \t\r\n[ 1 , { \"a\" : 2 } ]\n ", .array([.integer(1), .object(["a": .integer(2)])])),
      // As JSONDecoder: the first of duplicate keys wins.
      (#"{"a":1,"a":2}"#, .object(["a": .integer(1)])),
      (#"{"a":{"x":1,"x":[]},"a":null}"#, .object(["a": .object(["x": .integer(1)])])),
      // As JSONDecoder: a leading byte order mark is skipped.
      ("\u{FEFF}[1]", .array([.integer(1)])),
    ] as [(String, JSONValue)])
  func reads(text: String, expected: JSONValue) throws {
    #expect(try JSONValue(parsing: text) == expected)
  }

  @Test(
    "refuses what is not JSON, naming the byte",
    arguments: [
      ("", 0, "expected a value at offset 0, found the end"),
      ("   ", 3, "expected a value at offset 3, found the end"),
      ("nope", 0, "expected a value at offset 0, found 'nope'"),
      ("tru", 0, "expected a value at offset 0, found 'tru'"),
      ("nulll", 4, "expected the end at offset 4, found 'l'"),
      ("NaN", 0, "expected a value at offset 0, found 'NaN'"),
      ("Infinity", 0, "expected a value at offset 0, found 'Infinity'"),
      ("[1] x", 4, "expected the end at offset 4, found 'x'"),
      ("[1]]", 3, "expected the end at offset 3, found ']'"),
      ("1 2", 2, "expected the end at offset 2, found '2'"),
      ("\u{1}", 0, "expected a value at offset 0, found byte 0x1"),
      // Numbers: JSON's syntax only.
      ("01", 0, "the number at offset 0 has a leading zero"),
      ("-01", 0, "the number at offset 0 has a leading zero"),
      ("00", 0, "the number at offset 0 has a leading zero"),
      ("+1", 0, "expected a value at offset 0, found '+'"),
      (".5", 0, "expected a value at offset 0, found '.'"),
      ("1.", 2, "expected a digit at offset 2, found the end"),
      ("1.e5", 2, "expected a digit at offset 2, found 'e'"),
      ("-", 1, "expected a digit at offset 1, found the end"),
      ("--1", 1, "expected a digit at offset 1, found '-'"),
      ("1e", 2, "expected a digit at offset 2, found the end"),
      ("1e+", 3, "expected a digit at offset 3, found the end"),
      ("1e5.0", 3, "expected the end at offset 3, found '.'"),
      ("0x10", 1, "expected the end at offset 1, found 'x'"),
      // Strings: closed, control characters escaped, escapes JSON's, UTF-8.
      ("\"abc", 0, "the string at offset 0 has no closing '\"'"),
      ("\"a\\", 2, "'\\' at offset 2 ends the input"),
      ("[\"a\tb\"]", 3, "control character U+0009 at offset 3 is not escaped in a string"),
      ("\"\n\"", 1, "control character U+000A at offset 1 is not escaped in a string"),
      ("\"\u{0}\"", 1, "control character U+0000 at offset 1 is not escaped in a string"),
      ("\"\\u0041\u{1F}\"", 7, "control character U+001F at offset 7 is not escaped in a string"),
      (#""\q""#, 1, #"'\' followed by 'q' at offset 1 is not a JSON escape"#),
      (#""\x41""#, 1, #"'\' followed by 'x' at offset 1 is not a JSON escape"#),
      (#""\U0041""#, 1, #"'\' followed by 'U' at offset 1 is not a JSON escape"#),
      (#""\u00G1""#, 1, #"'\u' at offset 1 is not followed by four hexadecimal digits"#),
      (#""\u41""#, 1, #"'\u' at offset 1 is not followed by four hexadecimal digits"#),
      (#""\u"#, 1, #"'\u' at offset 1 is not followed by four hexadecimal digits"#),
      (#""\ud800""#, 1, #"'\ud800' at offset 1 is a lone surrogate"#),
      (#""\uDFFF""#, 1, #"'\uDFFF' at offset 1 is a lone surrogate"#),
      (#""\ud83dx""#, 1, #"'\ud83d' at offset 1 is a lone surrogate"#),
      (#""\ud83d\n""#, 1, #"'\ud83d' at offset 1 is a lone surrogate"#),
      (#""\ud83d\ud83d""#, 1, #"'\ud83d' at offset 1 is a lone surrogate"#),
      (#""\ude00\ud83d""#, 1, #"'\ude00' at offset 1 is a lone surrogate"#),
      (#""\ud83d\u00""#, 7, #"'\u' at offset 7 is not followed by four hexadecimal digits"#),
      // Arrays and objects: no trailing comma, string keys, ':' between.
      ("[", 1, "expected a value at offset 1, found the end"),
      ("[1", 2, "expected ',' or ']' at offset 2, found the end"),
      ("[1,]", 3, "expected a value at offset 3, found ']'"),
      ("[,]", 1, "expected a value at offset 1, found ','"),
      ("[1 2]", 3, "expected ',' or ']' at offset 3, found '2'"),
      ("[1}", 2, "expected ',' or ']' at offset 2, found '}'"),
      ("{", 1, "expected a string key or '}' at offset 1, found the end"),
      ("{a:1}", 1, "expected a string key or '}' at offset 1, found 'a'"),
      ("{1:1}", 1, "expected a string key or '}' at offset 1, found '1'"),
      (#"{"a":1,}"#, 7, "expected a string key at offset 7, found '}'"),
      (#"{"a" 1}"#, 5, "expected ':' at offset 5, found '1'"),
      (#"{"a":}"#, 5, "expected a value at offset 5, found '}'"),
      (#"{"a":1 "b":2}"#, 7, "expected ',' or '}' at offset 7, found '\"'"),
      (#"{"a":1]"#, 6, "expected ',' or '}' at offset 6, found ']'"),
      ("]", 0, "expected a value at offset 0, found ']'"),
    ] as [(String, Int, String)])
  func refuses(text: String, offset: Int, message: String) {
    #expect(throws: JSONSyntaxError(offset: offset, description: message)) {
      try JSONValue(parsing: text)
    }
  }

  @Test(
    "refuses bytes that are not UTF-8 in a string",
    arguments: [
      [0xC3, 0x28],  // a lead byte without its continuation
      [0xFF],  // never in UTF-8
      [0x80],  // a continuation without a lead
      [0xED, 0xA0, 0x80],  // a surrogate, encoded
      [0xC0, 0xAF],  // an overlong '/'
      [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
    ] as [[UInt8]])
  func refusesInvalidUTF8(bytes: [UInt8]) {
    let plain = [UInt8(ascii: "[")] + [UInt8(ascii: "\"")] + bytes + Array("\"]".utf8)
    #expect(throws: JSONSyntaxError(offset: 1, description: "the string at offset 1 is not UTF-8"))
    {
      try JSONValue(parsing: plain)
    }
    // The same after an escape (the slow path).
    let escaped = Array("[\"\\n".utf8) + bytes + Array("\"]".utf8)
    #expect(throws: JSONSyntaxError(offset: 1, description: "the string at offset 1 is not UTF-8"))
    {
      try JSONValue(parsing: escaped)
    }
  }

  @Test("nests arrays and objects 512 deep, as JSONDecoder; refuses deeper, however deep")
  func nesting() throws {
    func arrays(_ depth: Int) -> String {
      String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }
    func objects(_ depth: Int) -> String {
      String(repeating: #"{"a":"#, count: depth - 1) + "{}"
        + String(repeating: "}", count: depth - 1)
    }
    _ = try JSONValue(parsing: arrays(512))
    _ = try JSONValue(parsing: objects(512))
    _ = try JSONValue(parsing: "[" + arrays(511) + "," + arrays(511) + "]")
    #expect(
      throws: JSONSyntaxError(
        offset: 512, description: "more than 512 nested arrays and objects at offset 512")
    ) { try JSONValue(parsing: arrays(513)) }
    #expect(
      throws: JSONSyntaxError(
        offset: 2560, description: "more than 512 nested arrays and objects at offset 2560")
    ) { try JSONValue(parsing: objects(513)) }
    // Far past any stack: refused at the 513th level, never read further.
    #expect(throws: JSONSyntaxError.self) {
      try JSONValue(parsing: String(repeating: "[", count: 1_000_000))
    }
    #expect(throws: JSONSyntaxError.self) {
      try JSONValue(parsing: String(repeating: #"{"a":["#, count: 200_000))
    }
  }

  @Test(
    "reads what JSONDecoder reads, the same (integers without a fraction or exponent)",
    arguments: [
      #"[{"uid":"ABCDEFGHJKLMNPRSTUVW","interval":3,"format":"e21zZ30="}]"#,
      #"{"a":[1,-2,"x",null,true,false,{"b":{}}],"c":"\u00e9\ud83d\ude00\/","d":0.5}"#,
      #"[-9223372036854775808,9223372036854775807,9223372036854775808,1e300,-1.25e-3]"#,
      #"["\"\\\b\f\n\r\t\u0000\u001f","é€😀"]"#,
      "\u{FEFF} [ ] ",
    ])
  func agreesWithJSONDecoder(text: String) throws {
    let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    #expect(try JSONValue(parsing: text) == decoded)
  }

  @Test("round-trips compactText")
  func roundTrip() throws {
    let value = JSONValue.object([
      "s": .string("a\"\\\n\u{1}\u{7F}\u{85}é😀"), "n": .number(-2.5), "i": .integer(.min),
      "a": .array([.null, .bool(false), .object([:])]),
    ])
    #expect(try JSONValue(parsing: value.compactText) == value)
  }
}
