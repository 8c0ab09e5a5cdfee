import Foundation
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// Binary property lists read with libplist (`PropertyList.read`), held to
/// the XML reader's rules; files made by Foundation's writer (`plutil`'s),
/// by Python's `plistlib`, and assembled by hand for what no writer makes.
@Suite struct PropertyListLibplistTests {
  typealias Binary = BinaryPropertyList

  /// ``PropertyListXMLTests/sample`` as Foundation's property-list objects.
  static func foundationObject(_ value: PropertyListValue) -> Any {
    switch value {
    case .string(let text): text
    case .bool(let flag): flag
    case .integer(let number): number
    case .real(let number): number
    case .date(let seconds): Date(timeIntervalSince1970: seconds)
    case .data(let bytes): Data(bytes)
    case .array(let items): items.map(foundationObject)
    case .dictionary(let members): members.mapValues(foundationObject)
    }
  }

  /// `PropertyListXMLTests.sample` written by Python 3.11's
  /// `plistlib.dump(sample, f, fmt=plistlib.FMT_BINARY)` (its `When` a naive
  /// `datetime(2023, 11, 14, 22, 13, 20)`, which plistlib takes as UTC):
  /// a fixture, so that this test needs no Python.
  static let plistlibSample = Data(
    base64Encoded:
      "YnBsaXN0MDDaAQIDBAUGBwgJCgsMDQ4TFBUWFxpUQmxvYlVDb3VudFVFbXB0eVZOZXN0ZWRTT2ZmVVJhdGlvWlJl"
      + "Z2lzdGVyZWRUVGV4dFRVSURzVFdoZW5EAAEC+hP/////////1lDSDxARElVpbm5lclRsaXN00KAIIz/4AAAAAAAA"
      + "CW8QJABhACAAPAAgAGIAIAAmACAAYwAgAD4AIABkACAAIgBxAHUAbwB0AGUAZAAiACAAJwBzAGkAbgBnAGwAZQAn"
      + "ACAA6QAgZeVnLKIYGV8QFEFCQ0RFRkdISktMTU5QUlNUVVZXXxAUMDEyMzQ1Njc4OUFCQ0RFRkdISkszQcWCFEAA"
      + "AAAACAAdACIAKAAuADUAOQA/AEoATwBUAFkAXgBnAGgAbQBzAHgAeQB6AHsAhACFANAA0wDqAQEAAAAAAAACAQAA"
      + "AAAAAAAbAAAAAAAAAAAAAAAAAAABCg==")!

  /// The same, as a Python expression.
  static let plistlibExpression = """
    {"UIDs": ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK"], "Registered": True, \
    "Off": False, "Count": -42, "Ratio": 1.5, \
    "When": datetime.datetime(2023, 11, 14, 22, 13, 20), "Blob": bytes([0, 1, 2, 250]), \
    "Text": "a < b & c > d \\"quoted\\" 'single' \\u00e9 \\u65e5\\u672c", "Empty": "", \
    "Nested": {"list": [], "inner": {}}}
    """

  @Test("the form is told by the first bytes: bplist is binary, anything else XML")
  func format() {
    let binary = PropertyListParseError(
      line: nil, message: "it is not a valid binary property list (bplist00)")
    #expect(throws: binary) { try PropertyList.read(Array("bplist00".utf8)) }
    let xml = PropertyListParseError(line: 1, message: "unexpected end of file in <?...?>")
    #expect(throws: xml) { try PropertyList.read(Array("<?xml".utf8)) }
    let empty = PropertyListParseError(line: 1, message: "unexpected end of file")
    #expect(throws: empty) { try PropertyList.read([]) }
  }

  @Test("what Foundation's binary writer (plutil's) makes reads as the same values")
  func foundationWriter() throws {
    let sample = PropertyListXMLTests.sample
    let bytes = try Binary.foundation(Self.foundationObject(sample))
    #expect(bytes.starts(with: Array("bplist00".utf8)))
    #expect(try PropertyList.read(Array(bytes)) == sample)
  }

  @Test("what Python's plistlib writes in binary (FMT_BINARY) reads as the same values")
  func plistlibFixture() throws {
    #expect(try PropertyList.read(Array(Self.plistlibSample)) == PropertyListXMLTests.sample)
  }

  @Test(
    "what the python3 on PATH writes with plistlib in binary reads as the same values",
    .enabled(if: BinaryPropertyList.isAvailable("python3")))
  func plistlibLive() throws {
    let bytes = try #require(try Binary.plistlib(Self.plistlibExpression))
    #expect(bytes.starts(with: Array("bplist00".utf8)))
    #expect(try PropertyList.read(Array(bytes)) == PropertyListXMLTests.sample)
  }

  @Test(
    "what plutil -convert binary1 makes of the XML tpns writes reads as the same values",
    .enabled(if: BinaryPropertyList.isAvailable("plutil")))
  func plutil() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("sample.plist")
    try Data(PropertyListXML.serialize(PropertyListXMLTests.sample))
      .write(to: URL(fileURLWithPath: path))
    #expect(try Binary.plutil(convert: path))
    let bytes = try #require(contents(of: path))
    #expect(bytes.starts(with: Array("bplist00".utf8)))
    #expect(try PropertyList.read(Array(bytes)) == PropertyListXMLTests.sample)
  }

  @Test("integers keep their sign and 64 bits")
  func integers() throws {
    for number in [Int64.min, -1, 0, 255, Int64.max] {
      let file = Binary.assemble([Binary.integer(number)])
      #expect(try PropertyList.read(Array(file)) == .integer(Int(number)))
    }
  }

  @Test(
    "dates from 1933 to 2069 keep their seconds, and their fraction's sign",
    arguments: [
      (0.0, 978_307_200.0),
      (-31_622_400.25, 946_684_799.75),  // 1999-12-31T23:59:59.75
      (1_700_000_000.5, 2_678_307_200.5),
      (-1_000_000_000.0, -21_692_800.0),  // 1969-04-25, before 1970
    ])
  func dates(sinceReferenceDate: Double, since1970: Double) throws {
    let file = Binary.assemble([Binary.date(sinceReferenceDate)])
    #expect(try PropertyList.read(Array(file)) == .date(secondsSince1970: since1970))
  }

  /// `depth` levels of arrays, each holding the next; the last is empty.
  static func nested(_ depth: Int) -> Data {
    Binary.assemble((0..<depth).map { $0 == depth - 1 ? Binary.array([]) : Binary.array([$0 + 1]) })
  }

  @Test("64 levels of nesting are read")
  func deepestRead() throws {
    var expected = PropertyListValue.array([])
    for _ in 1..<64 { expected = .array([expected]) }
    #expect(try PropertyList.read(Array(Self.nested(64))) == expected)
  }

  @Test(
    "values nested deeper than 64 levels are refused, naming the limit, before libplist reads them",
    arguments: [65, 200_000])
  func tooDeep(depth: Int) {
    let expected = PropertyListParseError(
      line: nil, message: "values nest deeper than 64 levels", isTooDeep: true)
    #expect(throws: expected) { try PropertyList.read(Array(Self.nested(depth))) }
  }

  @Test("a container shared by every level (2^40 values in 1 KB) is refused, not expanded")
  func sharedContainers() {
    // Object n is an array holding object n + 1 twice.
    let levels = 40
    let file = Binary.assemble(
      (0..<levels).map { $0 == levels - 1 ? Binary.integer(1) : Binary.array([$0 + 1, $0 + 1]) })
    #expect {
      try PropertyList.read(Array(file))
    } throws: { error in
      "\(error)".hasPrefix("it describes more than 1000000 values")
    }
  }

  @Test(
    "binary files that are not valid, or hold what XML cannot, are refused with the reason",
    arguments: [
      (
        "truncated", Data("bplist00\u{D1}\u{01}\u{02}".utf8),
        "it is not a valid binary property list"
      ),
      (
        "a cycle",
        Binary.assemble([Binary.array([1]), Binary.array([0])]),
        "it is not a valid binary property list"
      ),
      (
        "a reference out of range",
        Binary.assemble([Binary.array([7])]),
        "it is not a valid binary property list"
      ),
      (
        "a key twice",
        Binary.assemble([
          Binary.dictionary(keys: [1, 1], values: [2, 2]), Binary.string("UIDs"),
          Binary.array([]),
        ]),
        "the key 'UIDs' appears twice"
      ),
      (
        "a string that is not UTF-8",
        Binary.assemble([Binary.string(bytes: Array("caf".utf8) + [0xE9])]),
        "a string is not valid UTF-8"
      ),
      (
        "a keyed archiver's UID",
        Binary.assemble([Binary.array([1]), Binary.uid(3)]),
        "it holds a keyed archiver's UID"
      ),
    ] as [(String, Data, String)])
  func refused(name: String, file: Data, reason: String) {
    #expect {
      try PropertyList.read(Array(file))
    } throws: { error in
      (error as? PropertyListParseError)?.line == nil && "\(error)".hasPrefix(reason)
    }
  }

  @Test("XML is read by the project's reader: its errors have a line")
  func xmlReader() {
    #expect(
      throws: PropertyListParseError(line: 2, message: "<foo> is not a property list element")
    ) {
      try PropertyList.read(Array("<plist>\n<foo/></plist>".utf8))
    }
  }
}
