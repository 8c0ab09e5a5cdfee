import Foundation
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// A store in binary form (converted by hand, copied from a device): read
/// as the same state under the same rules, written as XML on its next change.
@Suite struct StoreBinaryTests {
  typealias Binary = BinaryPropertyList

  /// The XML store at `path` rewritten in binary form by Foundation's writer.
  static func convertToBinary(_ path: String) throws {
    let data = try #require(contents(of: path))
    let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    try Binary.foundation(object).write(to: URL(fileURLWithPath: path))
  }

  /// A binary store whose top dictionary holds only `UIDs`, the given strings.
  static func binaryStore(uids: [String]) -> Data {
    Binary.assemble(
      [
        Binary.dictionary(keys: [1], values: [2]), Binary.string("UIDs"),
        Binary.array(uids.indices.map { $0 + 3 }),
      ]
        + uids.map(Binary.string))
  }

  @Test("a binary store reads as the state its XML held: list, registration, servers, other keys")
  func readsSameState() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    var state = StoreTests.sampleState()
    state.settings["ABCDEFGHJKLMNPRSTUVW"] = try MappingSettings(interval: 30, format: "-x {uid}")
    state.otherKeys = ["Nickname": .string("front door"), "Volume": .integer(7)]
    try store.update { $0 = state }
    try Self.convertToBinary(store.path)
    #expect(contents(of: store.path)?.starts(with: Array("bplist00".utf8)) == true)
    #expect(try Store(path: store.path).load() == state)
  }

  @Test("a binary store is left as it is by a read and an update that changes nothing")
  func notRewrittenWithoutChange() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let bytes = Self.binaryStore(uids: ["ABCDEFGHJKLMNPRSTUVW"])
    try bytes.write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    _ = try store.load()
    try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] }
    #expect(contents(of: path) == bytes)
  }

  @Test("a binary store is written as XML on its next change, which Foundation reads")
  func rewrittenAsXML() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    try Self.binaryStore(uids: ["ABCDEFGHJKLMNPRSTUVW"]).write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    try store.update { $0.uids.append("0123456789ABCDEFGHJK") }
    let text = String(decoding: try #require(contents(of: path)), as: UTF8.self)
    #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"))
    #expect(try StoreFile(path: path).uids == ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK"])
    #expect(permissions(of: path) == 0o600)
  }

  @Test(
    "a binary store is validated as an XML one: UIDs canonical, no duplicates, no invalid UID",
    arguments: [
      (["abcdefghjklmnprstuvw", " HHHHHHHHHHHHHHHHHHHH"], nil),
      (
        ["AAAAAAAAAAAAAAAAAAAA", "aaaaaaaaaaaaaaaaaaaa"],
        "'UIDs' holds AAAAAAAAAAAAAAAAAAAA twice (items 0 and 1)"
      ),
      (["AAAAAAAAAAAAAAAAAAAA", "AAAA"], "'UIDs' item 1 is not a UID (\"AAAA\": "),
    ] as [([String], String?)])
  func validated(uids: [String], refusal: String?) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let bytes = Self.binaryStore(uids: uids)
    try bytes.write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    guard let refusal else {
      #expect(try store.load().uids == ["ABCDEFGHJKLMNPRSTUVW", "HHHHHHHHHHHHHHHHHHHH"])
      return
    }
    #expect {
      try store.update { $0.uids = [] }
    } throws: { error in
      "\(error)".contains(refusal) && "\(error)".contains(path)
    }
    #expect(contents(of: path) == bytes)
  }

  @Test("a binary store nested 200,000 deep is refused naming the limit, with no line")
  func nestedTooDeep() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    // {"Deep": [[[…]]]}: objects 0 and 1 the dictionary and its key, then the arrays.
    let depth = 200_000
    let arrays = (0..<depth).map { $0 == depth - 1 ? Binary.array([]) : Binary.array([$0 + 3]) }
    let bytes = Binary.assemble(
      [Binary.dictionary(keys: [1], values: [2]), Binary.string("Deep")] + arrays)
    try bytes.write(to: URL(fileURLWithPath: path))
    let refusal = StoreError.corrupt(path: path, reason: .nestedTooDeep(limit: 64, line: nil))
    #expect(throws: refusal) { try Store(path: path).load() }
    #expect(
      refusal.description
        == "the store \(path) cannot be read: its elements nest deeper than 64 levels; "
        + "a store nests 6, and tpns reads at most 64")
    #expect(contents(of: path) == bytes)
  }

  @Test("a binary store holding a control character, which XML cannot, is refused when read")
  func unwritableOtherKey() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    // {"UIDs": [], "Note": {"a\u{1}b": 1}}
    let bytes = Binary.assemble([
      Binary.dictionary(keys: [1, 2], values: [3, 4]), Binary.string("UIDs"),
      Binary.string("Note"), Binary.array([]), Binary.dictionary(keys: [5], values: [6]),
      Binary.string("a\u{1}b"), Binary.integer(1),
    ])
    try bytes.write(to: URL(fileURLWithPath: path))
    let store = Store(path: path)
    let refusal = StoreError.corrupt(
      path: path,
      reason: .invalidValue(
        key: "Note › a\\u{1}b",
        reason: "the key holds U+0001, a character XML does not allow "
          + "(tpns writes the store as XML)"))
    #expect(throws: refusal) { try store.load() }
    #expect(throws: refusal) { try store.update { $0.uids = ["ABCDEFGHJKLMNPRSTUVW"] } }
    #expect(contents(of: path) == bytes)
  }

  @Test("a binary store's string holding U+FFFE is refused, naming where it is")
  func unwritableString() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let bytes = try BinaryPropertyList.foundation([
      "UIDs": [String](), "Notes": ["x", "a\u{FFFE}"],
    ])
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect(
      throws: StoreError.corrupt(
        path: path,
        reason: .invalidValue(
          key: "Notes › 1",
          reason: "it holds U+FFFE, a character XML does not allow "
            + "(tpns writes the store as XML)"))
    ) { try Store(path: path).load() }
    #expect(contents(of: path) == bytes)
  }

  @Test(
    "such a character's place is named with a server's URL redacted and a long key cut to 40",
    arguments: [
      ("http://alice:s3cret@a/tpns?key=q1", "Servers › http://***@a/tpns?key=*** › X"),
      (
        String(repeating: "K", count: 50),
        "Servers › " + String(repeating: "K", count: 40) + "… › X"
      ),
    ])
  func unwritablePlaceShown(server: String, key: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let bytes = try BinaryPropertyList.foundation([
      "UIDs": [String](), "Servers": [server: ["X": "a\u{1}"]],
    ])
    try bytes.write(to: URL(fileURLWithPath: path))
    let reason = StoreFormatError.invalidValue(
      key: key,
      reason: "it holds U+0001, a character XML does not allow (tpns writes the store as XML)")
    #expect(throws: StoreError.corrupt(path: path, reason: reason)) { try Store(path: path).load() }
    #expect(contents(of: path) == bytes)
  }

  @Test(
    "a binary store's date libplist cannot hand over exactly is refused, naming its key",
    arguments: [
      -3_187_296_000.0,  // 1900-01-01
      3_124_224_000,  // 2100-01-01
      -0.5, 0.5,  // within a second of 2001, not on it
      .nan, .infinity, -.infinity, 1e300, 2e19,  // libplist's fraction is then garbage
    ])
  func inexactDate(sinceReferenceDate: Double) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    // {"UIDs": [], "When": date}
    let bytes = Binary.assemble([
      Binary.dictionary(keys: [1, 2], values: [3, 4]), Binary.string("UIDs"),
      Binary.string("When"), Binary.array([]), Binary.date(sinceReferenceDate),
    ])
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect {
      try Store(path: path).load()
    } throws: { error in
      "\(error)".contains("'When' is not valid: it holds a date libplist cannot read exactly")
    }
    #expect(contents(of: path) == bytes)
    // A file to import may hold one in a key tpns does not take.
    let prefs = Binary.assemble([
      Binary.dictionary(keys: [1, 2], values: [3, 4]), Binary.string("UIDs"),
      Binary.string("When"), Binary.array([5]), Binary.date(sinceReferenceDate),
      Binary.string("ABCDEFGHJKLMNPRSTUVW"),
    ])
    #expect(
      try ImportFile.contents(of: Array(prefs), name: "prefs.plist").uids.map(\.text)
        == ["ABCDEFGHJKLMNPRSTUVW"])
  }

  @Test("a binary store's UID holding a control character is refused as no UID, as in XML")
  func controlCharacterInUID() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    let bytes = try BinaryPropertyList.foundation(["UIDs": ["ABCDEFGHJK\u{1B}LMNPRSTUV"]])
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect {
      try Store(path: path).load()
    } throws: { error in
      "\(error)".contains("'UIDs' item 0 is not a UID")
    }
  }

  @Test("a binary file to import may hold such a character in a key tpns does not take")
  func importTakesUIDsBesideControlCharacters() throws {
    let bytes = try BinaryPropertyList.foundation([
      "UIDs": ["ABCDEFGHJKLMNPRSTUVW"], "Other": "a\u{1}b",
    ])
    let imported = try ImportFile.contents(of: Array(bytes), name: "prefs.plist")
    #expect(imported.uids.map(\.text) == ["ABCDEFGHJKLMNPRSTUVW"])
  }
}
