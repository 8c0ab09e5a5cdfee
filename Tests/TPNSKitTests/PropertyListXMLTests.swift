import Foundation
import TPNSProtocol
import Testing

@testable import TPNSKit

@Suite struct PropertyListXMLTests {
  static let sample = PropertyListValue.dictionary([
    "UIDs": .array([.string("ABCDEFGHJKLMNPRSTUVW"), .string("0123456789ABCDEFGHJK")]),
    "Registered": .bool(true),
    "Off": .bool(false),
    "Count": .integer(-42),
    "Ratio": .real(1.5),
    "When": .date(secondsSince1970: 1_700_000_000),
    "Blob": .data([0, 1, 2, 250]),
    "Text": .string("a < b & c > d \"quoted\" 'single' é 日本"),
    "Empty": .string(""),
    "Nested": .dictionary(["list": .array([]), "inner": .dictionary([:])]),
  ])

  @Test("what it writes, it reads back as the same values")
  func roundTrip() throws {
    let bytes = try PropertyListXML.serialize(Self.sample)
    #expect(try PropertyListXML.parse(bytes) == Self.sample)
  }

  @Test("an array read after another is read as written, where it agrees with it and where not")
  func laterArraysAgainstEarlier() throws {
    let text = """
      <plist><dict>
      <key>A</key><array><string>ONE</string><string>TWO</string><string>THREE</string></array>
      <key>B</key><array><string>ONE</string><string>2</string><integer>3</integer>\
      <string>THREE</string><string>FOUR</string><string>TW&amp;O</string></array>
      <key>C</key><array><string>ONE</string><string>TWO</string></array>
      </dict></plist>
      """
    let value = try PropertyListXML.parse(Array(text.utf8))
    #expect(
      value
        == .dictionary([
          "A": .array([.string("ONE"), .string("TWO"), .string("THREE")]),
          "B": .array([
            .string("ONE"), .string("2"), .integer(3), .string("THREE"), .string("FOUR"),
            .string("TW&O"),
          ]),
          "C": .array([.string("ONE"), .string("TWO")]),
        ]))
  }

  @Test("a carriage return is written as a reference, which XML readers keep")
  func carriageReturn() throws {
    let value = PropertyListValue.string("line\r\nnext\rlast")
    let bytes = try PropertyListXML.serialize(value)
    // Written as it is, XML readers (expat, plistlib) would read a line feed.
    #expect(String(decoding: bytes, as: UTF8.self).contains("line&#13;\nnext&#13;last"))
    #expect(try PropertyListXML.parse(bytes) == value)
  }

  @Test("Foundation's PropertyListDecoder reads what it writes")
  func foundationReadsIt() throws {
    struct Mirror: Decodable, Equatable {
      let uids: [String]
      let registered: Bool
      let count: Int
      let ratio: Double
      let when: Date
      let blob: Data
      let text: String
      let empty: String

      enum CodingKeys: String, CodingKey {
        case uids = "UIDs"
        case registered = "Registered"
        case count = "Count"
        case ratio = "Ratio"
        case when = "When"
        case blob = "Blob"
        case text = "Text"
        case empty = "Empty"
      }
    }
    let decoded = try PropertyListDecoder().decode(
      Mirror.self, from: Data(PropertyListXML.serialize(Self.sample)))
    #expect(decoded.uids == ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK"])
    #expect(decoded.registered)
    #expect(decoded.count == -42)
    #expect(decoded.ratio == 1.5)
    #expect(decoded.when == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(decoded.blob == Data([0, 1, 2, 250]))
    #expect(decoded.text == "a < b & c > d \"quoted\" 'single' é 日本")
    #expect(decoded.empty == "")
  }

  @Test("it reads what Foundation's PropertyListEncoder writes")
  func readsFoundation() throws {
    struct Document: Encodable {
      let uids = ["ABCDEFGHJKLMNPRSTUVW"]
      let registered = false
      let count = 7
      let text = "x & y"
      let when = Date(timeIntervalSince1970: 0)

      enum CodingKeys: String, CodingKey {
        case uids = "UIDs"
        case registered = "Registered"
        case count = "Count"
        case text = "Text"
        case when = "When"
      }
    }
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    let bytes = Array(try encoder.encode(Document()))
    #expect(
      try PropertyListXML.parse(bytes)
        == .dictionary([
          "UIDs": .array([.string("ABCDEFGHJKLMNPRSTUVW")]), "Registered": .bool(false),
          "Count": .integer(7), "Text": .string("x & y"),
          "When": .date(secondsSince1970: 0),
        ]))
  }

  @Test(
    "XML it must accept: BOM, comments, CDATA, entities, character references, empty elements",
    arguments: [
      ("\u{FEFF}<plist><string>a</string></plist>", PropertyListValue.string("a")),
      (
        "<!-- c --><plist version=\"1.0\"><!-- c --><string>a<!-- c -->b</string></plist>",
        .string("ab")
      ),
      ("<plist><string><![CDATA[<&>]]></string></plist>", .string("<&>")),
      ("<plist><string>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;</string></plist>", .string("<>&\"'AB")),
      ("<plist><string>&#x000000000041;&#00066;</string></plist>", .string("AB")),
      ("<plist><string>&#9;&#10;&#13;&#x10FFFF;</string></plist>", .string("\t\n\r\u{10FFFF}")),
      ("<plist><string>a<?pi x?>b</string></plist>", .string("ab")),
      ("<plist><string>a\r\nb\rc\r</string></plist>", .string("a\nb\nc\n")),
      ("<!----><plist><string>a</string></plist>", .string("a")),
      ("<!-- a -- b ---><plist><string>a<!-- -- --->b</string></plist>", .string("ab")),
      ("<!-- c --><?xml version=\"1.0\"?><plist><string>a</string></plist>", .string("a")),
      (
        "<plist><?xml version=\"1.0\"?><string>a<?xml version=\"1.0\"?>b</string></plist>",
        .string("ab")
      ),
      ("\n\t <?xml version=\"1.0\"?><plist><string>a</string></plist>", .string("a")),
      ("\u{FEFF}<?xml version=\"1.0\"?><plist><string>a</string></plist>", .string("a")),
      ("<?xml?><plist><string>a</string></plist>", .string("a")),
      ("<!-- c --><?xml-stylesheet href=\"a\"?><plist><string>a</string></plist>", .string("a")),
      ("<plist><string>a\r</string></plist>", .string("a\n")),
      ("<plist><string><![CDATA[a\r\nb\rc]]></string></plist>", .string("a\nb\nc")),
      (
        "<?xml version=\"1.0\"?><?style encoding=\"latin1\"?><plist><string>a</string></plist>",
        .string("a")
      ),
      ("<plist><string/></plist>", .string("")),
      ("<plist><array/></plist>", .array([])),
      ("<plist><dict/></plist>", .dictionary([:])),
      (
        "<plist>\n  <dict>\n    <key>k</key>\n    <integer> 0x1F </integer>\n  </dict>\n</plist>\n",
        .dictionary(["k": .integer(31)])
      ),
      ("<plist><true/></plist>", .bool(true)),
      ("<plist><real>-2.5e3</real></plist>", .real(-2500)),
      (
        "<plist><date>2020-02-29T23:59:59Z</date></plist>",
        .date(secondsSince1970: 1_583_020_799)
      ),
      ("<plist><data>AA\n  EC</data></plist>", .data([0, 1, 2])),
      ("<plist><data>\n\tAAECAw==\n\t</data></plist>", .data([0, 1, 2, 3])),
      ("<plist><data></data></plist>", .data([])),
    ])
  func accepts(text: String, expected: PropertyListValue) throws {
    #expect(try PropertyListXML.parse(Array(text.utf8)) == expected)
  }

  @Test(
    "XML it must refuse, with a line number",
    arguments: [
      "",
      "<plist>",
      "<plist><string>a</plist>",
      "<plist><dict><key>a</key></dict></plist>",
      "<plist><dict><string>a</string></dict></plist>",
      "<plist><dict><key>a</key><true/><key>a</key><true/></dict></plist>",
      "<plist><integer>12x</integer></plist>",
      "<plist><foo/></plist>",
      "<plist><string>a &bogus; b</string></plist>",
      "<plist><string>&#x+41;</string></plist>",
      "<plist><string>&#+65;</string></plist>",
      "<plist><string>&#;</string></plist>",
      "<plist><string>&#x4G;</string></plist>",
      "<plist><string>&#0;</string></plist>",
      "<plist><string>&#x1;</string></plist>",
      "<plist><string>&#xFFFE;</string></plist>",
      "<plist><string>&#xFFFF;</string></plist>",
      "<plist><string>&#xD800;</string></plist>",
      "<plist><string>&#x110000;</string></plist>",
      "<plist><string>a\u{1B}b</string></plist>",
      "<plist><string>a\u{0}</string></plist>",
      "<plist><string>\u{FFFE}</string></plist>",
      "<plist><string>a&amp;\u{7}</string></plist>",
      "<plist><string><![CDATA[\u{1B}]]></string></plist>",
      "<plist><dict><key>a\u{1B}</key><true/></dict></plist>",
      "<plist><string>a</string></plist>junk",
      "<array><string>a</string></array>",
      "<plist><date>yesterday</date></plist>",
      "<plist><data>AAEC!</data></plist>",
      "<plist><data>AAE</data></plist>",
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>a</string></plist>",
    ])
  func refuses(text: String) {
    #expect(throws: PropertyListXML.ParseError.self) { try PropertyListXML.parse(Array(text.utf8)) }
  }

  @Test(
    "what is wrong is named: a character XML does not allow, a file that ends in a tag, a lone & or <",
    arguments: [
      ("<plist><string>&#0;</string></plist>", "'&#0;' is U+0000, a character XML does not allow"),
      (
        "<plist><string>a & b</string></plist>",
        "an '&' that starts no entity (write a lone '&' as '&amp;')"
      ),
      ("<plist><string>a</str", "unexpected end of file, expected </string>"),
      ("<plist><string>a</stx></plist>", "expected </string>"),
      ("<plist><string>a\u{1B}b</string></plist>", "U+001B is a character XML does not allow"),
      ("<plist><string>a</string></plist>\u{1}", "U+0001 is a character XML does not allow"),
      (
        "<plist><string>&#x+41;</string></plist>",
        "an '&' that starts no entity (write a lone '&' as '&amp;')"
      ),
      (
        "<plist><string>a<b</string></plist>",
        "<string> holds text, not elements (write a '<' in text as '&lt;')"
      ),
      (
        "<plist><string>a<br/>b</string></plist>",
        "<string> holds text, not elements (write a '<' in text as '&lt;')"
      ),
      (
        "<?xml version=\"1.0\" encoding = \"ISO-8859-1\"?><plist><string>a</string></plist>",
        "the file declares the encoding 'iso-8859-1'; only UTF-8 is read"
      ),
      (
        "<?xml version=\"1.0\" encoding\n='latin1'?><plist><string>a</string></plist>",
        "the file declares the encoding 'latin1'; only UTF-8 is read"
      ),
      ("<plist><string>&#xD800;</string></plist>", "'&#xD800;' is no Unicode character"),
    ])
  func namesTheError(text: String, message: String) {
    #expect(throws: PropertyListXML.ParseError(line: 1, message: message)) {
      try PropertyListXML.parse(Array(text.utf8))
    }
  }

  @Test(
    "the line of an error counts line ends written LF, CR LF or CR alone",
    arguments: [
      ("<plist>\n<string>\n&#0;</string></plist>", 3),
      ("<plist>\r\n<string>\r\n&#0;</string></plist>", 3),
      ("<plist>\r<string>\r&#0;</string></plist>", 3),
      ("<plist>\r\r\n\n<string>&#0;</string></plist>", 4),
    ])
  func errorLine(text: String, line: Int) {
    #expect(
      throws: PropertyListXML.ParseError(
        line: line, message: "'&#0;' is U+0000, a character XML does not allow")
    ) {
      try PropertyListXML.parse(Array(text.utf8))
    }
  }

  @Test(
    "a character XML does not allow is named on its own line, not the line its string ends on",
    arguments: [
      ("<plist>\n<string>a\nb\u{1B}\nc\nd</string></plist>", 3, "U+001B"),
      ("<plist>\n<string>&amp;\r\r\u{7}\n\n</string></plist>", 4, "U+0007"),
      ("<plist>\n<string><![CDATA[\n\u{FFFF}]]>\n</string></plist>", 3, "U+FFFF"),
      ("<plist>\n<string>\n\n\u{FFFE}</string></plist>", 4, "U+FFFE"),
      ("<plist>\n<dict>\n\u{1}<key>a</key><true/></dict></plist>", 3, "U+0001"),
    ])
  func characterLine(text: String, line: Int, character: String) {
    #expect(
      throws: PropertyListXML.ParseError(
        line: line, message: "\(character) is a character XML does not allow")
    ) {
      try PropertyListXML.parse(Array(text.utf8))
    }
  }

  @Test(
    "<data> that is not base64 is refused naming what is wrong (white space between lines is not)",
    arguments: [
      ("<plist><data>AAE</data></plist>", "its length 3 is not a multiple of 4"),
      ("<plist><data>AA-C</data></plist>", "'-' at offset 2 is not a base64 character"),
    ])
  func refusesBadData(text: String, reason: String) {
    #expect(
      throws: PropertyListXML.ParseError(line: 1, message: "the <data> is not base64: \(reason)")
    ) {
      try PropertyListXML.parse(Array(text.utf8))
    }
  }

  @Test("only the array after the longest one is given its room: many short arrays ask for little")
  func roomForOneArray() throws {
    let long = "<array>" + String(repeating: "<string>A</string>", count: 1000) + "</array>"
    let short = "<array><true/></array>"
    let text = "<plist><array>" + long + String(repeating: short, count: 100) + "</array></plist>"
    guard case .array(let items) = try PropertyListXML.parse(Array(text.utf8)) else {
      Issue.record("not an array")
      return
    }
    let capacities = items.dropFirst().map { item -> Int in
      guard case .array(let inner) = item else { return -1 }
      return inner.capacity
    }
    #expect(capacities.first ?? 0 >= 1000)
    #expect(capacities.dropFirst().allSatisfy { $0 < 16 })
    #expect(capacities.count == 100)
  }

  /// `depth` levels of `open`…`close` around an empty array, in a plist.
  static func nested(_ depth: Int, open: String = "<array>", close: String = "</array>") -> [UInt8]
  {
    Array(
      ("<plist>" + String(repeating: open, count: depth - 1) + "<array/>"
        + String(repeating: close, count: depth - 1) + "</plist>").utf8)
  }

  @Test(
    "elements nested deeper than 64 levels are refused, naming the limit, before the stack ends",
    arguments: [
      (65, "<array>", "</array>"), (200_000, "<array>", "</array>"),
      (200_000, "<dict><key>k</key>", "</dict>"),
    ])
  func tooDeep(depth: Int, open: String, close: String) {
    let expected = PropertyListXML.ParseError(
      line: 1, message: "elements nest deeper than 64 levels", isTooDeep: true)
    #expect(throws: expected) {
      try PropertyListXML.parse(Self.nested(depth, open: open, close: close))
    }
  }

  @Test(
    "white space before an end tag's > is XML: read as without it, in each element",
    arguments: ["string", "key", "array", "dict", "integer", "true", "plist"])
  func spaceInEndTags(element: String) throws {
    let text = String(decoding: try PropertyListXML.serialize(Self.sample), as: UTF8.self)
    let spaced = text.replacing("</\(element)>", with: "</\(element) \t\n>")
      .replacing("<true/>", with: element == "true" ? "<true></true \n>" : "<true/>")
    #expect(spaced != text)
    #expect(try PropertyListXML.parse(Array(spaced.utf8)) == Self.sample)
  }

  @Test(
    "an end tag with anything but white space before its > is refused, naming what was expected")
  func otherEndTags() throws {
    let text = String(decoding: try PropertyListXML.serialize(Self.sample), as: UTF8.self)
    for bad in ["</string x>", "</stringx>", "</string"] {
      let broken = text.replacing("</string>", with: bad)
      #expect(throws: PropertyListXML.ParseError.self) {
        try PropertyListXML.parse(Array(broken.utf8))
      }
    }
  }

  @Test("64 levels of nesting are read")
  func deepestRead() throws {
    var expected = PropertyListValue.array([])
    for _ in 1..<64 { expected = .array([expected]) }
    #expect(try PropertyListXML.parse(Self.nested(64)) == expected)
  }

  @Test("bytes that are not UTF-8 are refused, not read garbled")
  func notUTF8() {
    let latin1: [UInt8] =
      Array("<plist><string>caf".utf8) + [0xE9] + Array("</string></plist>".utf8)
    #expect(throws: PropertyListXML.ParseError.self) { try PropertyListXML.parse(latin1) }
  }

  @Test(
    "bytes that are not UTF-8 are named by the line they are on, past long ASCII runs too",
    arguments: [1, 2, 9, 50, 400])
  func notUTF8Line(line: Int) {
    // Lines of 40 ASCII bytes (the reader's 32- and 8-byte steps), then a
    // cut two-byte sequence (0xC3 then ASCII) on line `line`.
    var bytes = Array("<plist><array>".utf8)
    for _ in 1..<line { bytes += Array("\t\t<string>ABCDEFGHJKLMNPRSTUVW</string>\n".utf8) }
    bytes += Array("\t\t<string>ABC".utf8) + [0xC3] + Array("DEFGHJKLMNPRSTUVW</string>\n".utf8)
    bytes += Array("</array></plist>".utf8)
    #expect(throws: PropertyListXML.ParseError(line: line, message: "the file is not UTF-8")) {
      try PropertyListXML.parse(bytes)
    }
  }

  @Test("a value with control characters is refused before anything is written")
  func controlCharacters() throws {
    #expect(!PropertyListXML.isWritable("a\u{1}b"))
    #expect(PropertyListXML.isWritable("tab\tand\nnewline and é 日本"))
    #expect(!PropertyListXML.isWritable("x\u{FFFE}"))
    #expect(!PropertyListXML.isWritable("\u{FFFF}"))
  }

  @Test(
    "a string is written with &, < and > escaped, the rest of its bytes as they are",
    arguments: [
      ("ABCDEFGHJKLMNPRSTUVW", "ABCDEFGHJKLMNPRSTUVW"),
      ("a<b>&c", "a&lt;b&gt;&amp;c"),
      ("&", "&amp;"),
      ("<<", "&lt;&lt;"),
      ("é 日本 \u{FFFD} tab\t", "é 日本 \u{FFFD} tab\t"),
      ("", ""),
    ])
  func escaping(text: String, written: String) throws {
    let bytes = try PropertyListXML.serialize(.string(text))
    let document = String(decoding: bytes, as: UTF8.self)
    #expect(document.contains("<string>\(written)</string>\n"))
    #expect(try PropertyListXML.parse(bytes) == .string(text))
  }

  @Test(
    "the first string XML cannot hold is named, wherever its character is",
    arguments: ["a\u{1}b", "\u{1F}", "x&\u{FFFE}", "<\u{FFFF}", "\u{7}<"])
  func unwritable(text: String) {
    let value = PropertyListValue.array([.string("fine & <ok>"), .string(text), .string("\u{2}")])
    #expect(throws: PropertyListXML.Unwritable(text: text)) { try PropertyListXML.serialize(value) }
    #expect(!PropertyListXML.isWritable(text))
  }

  @Test("dates keep whole seconds across years, before and after 1970")
  func dates() {
    for seconds in [-86_400 * 365, 0, 951_782_400, 1_700_000_000, 4_102_444_799] {
      #expect(CivilDate.seconds(iso8601: CivilDate.iso8601(seconds: seconds)) == seconds)
    }
    #expect(CivilDate.iso8601(seconds: 1_583_020_799) == "2020-02-29T23:59:59Z")
  }

  @Test(
    "a date is written back as read, before the Gregorian reform too (proleptic calendar)",
    arguments: [
      "0001-01-01T00:00:00Z", "0999-01-01T00:00:00Z", "1582-10-14T12:00:00Z",
      "1582-10-15T00:00:00Z", "1969-12-31T23:59:59Z", "2020-02-29T23:59:59Z",
      "9999-12-31T23:59:59Z",
    ])
  func dateText(text: String) throws {
    #expect(CivilDate.iso8601(seconds: try #require(CivilDate.seconds(iso8601: text))) == text)
  }
}
