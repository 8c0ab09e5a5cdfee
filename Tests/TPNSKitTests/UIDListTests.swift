import TPNSTestSupport
import Testing

@testable import TPNSKit

/// ``UIDList``: a collection of strings kept as one buffer, and the XML
/// reader's and writer's paths that fill and write it without a `String` per UID.
@Suite struct UIDListTests {
  static let uids = (0..<12).map {
    "UID" + String(repeating: "0", count: 15) + String(format: "%02d", $0)
  }

  /// An edit, done the same way to an array of strings and to a list.
  enum Edit: String, CaseIterable, Sendable {
    case append, insertFirst, insertLongerInTheMiddle, removeFirst, removeLast, removeRange
    case replaceRangeWithOthers, removeWhere, removeAll, appendMany

    func apply<C: RangeReplaceableCollection & BidirectionalCollection>(to list: inout C)
    where C.Element == String, C.Index == Int {
      switch self {
      case .append: list.append("ABCDEFGHJKLMNPRSTUVW")
      case .insertFirst: list.insert("X", at: 0)
      case .insertLongerInTheMiddle: list.insert("longer than twenty bytes", at: 5)
      case .removeFirst: list.remove(at: 0)
      case .removeLast: list.removeLast()
      case .removeRange: list.removeSubrange(3..<7)
      case .replaceRangeWithOthers: list.replaceSubrange(2..<4, with: ["é", "", "Z"])
      case .removeWhere: list.removeAll { $0.hasSuffix("1") }
      case .removeAll: list.removeAll()
      case .appendMany: list += ["A", "B", "C"]
      }
    }
  }

  @Test(
    "edits give the same elements as the same edits of an array of strings",
    arguments: Edit.allCases)
  func edits(_ edit: Edit) {
    var strings = Self.uids
    edit.apply(to: &strings)
    var list = UIDList(Self.uids)
    edit.apply(to: &list)
    #expect(Array(list) == strings)
    #expect(list == UIDList(strings))
    #expect(list.byteCount == strings.reduce(0) { $0 + $1.utf8.count })
  }

  @Test("lookups compare bytes: found at their index, absent ones and prefixes not found")
  func lookups() {
    let list = UIDList(Self.uids + ["", "AB"])
    #expect(list.firstIndex(of: Self.uids[7]) == 7)
    #expect(list.firstIndex(of: "") == 12)
    #expect(list.firstIndex(of: "A") == nil)
    #expect(list.contains("AB"))
    #expect(!list.contains(String(Self.uids[0].dropLast())))
    #expect(!UIDList().contains(""))
  }

  @Test(
    "a 20-byte lookup finds only all 20 bytes: a difference in any one of them is another UID",
    arguments: [0, 7, 8, 11, 12, 15, 16, 19])
  func twentyByteLookups(differingAt position: Int) {
    let wanted = "ABCDEFGHJKLMNPRSTUVW"
    var bytes = Array(wanted.utf8)
    bytes[position] = UInt8(ascii: "0")
    let other = String(decoding: bytes, as: UTF8.self)
    // Among longer and shorter elements that start alike.
    let list = UIDList([other, wanted + "X", String(wanted.dropLast()), other, wanted, other])
    #expect(list.firstIndex(of: wanted) == 4)
    #expect(list.firstIndex(of: other) == 0)
    #expect(UIDList([other, wanted + "X"]).firstIndex(of: wanted) == nil)
  }

  @Test(
    "a list is all 20-byte elements only when each is, not when their bytes add up",
    arguments: [
      ([], true), (["ABCDEFGHJKLMNPRSTUVW"], true), (uids, true),
      (["ABCDEFGHJKLMNPRSTUV", "ABCDEFGHJKLMNPRSTUVWX"], false), (uids + [""], false),
    ] as [([String], Bool)])
  func allTwentyBytes(strings: [String], expected: Bool) {
    #expect(UIDList(strings).isAllTwentyBytes == expected)
  }

  @Test("runs of another list append their elements, ends shifted")
  func appendRuns() {
    let other = UIDList(["a", "bb", "ccc", "dddd"])
    var list = UIDList(["x"])
    list.append(contentsOf: other, 1..<3)
    list.append(contentsOf: other, 0..<0)
    list.append(contentsOf: other, 3..<4)
    #expect(list == ["x", "bb", "ccc", "dddd"])
    #expect(list.matchingRun(from: 1, of: other, from: 1, limit: 1) == 1)
    #expect(list.matchingRun(from: 0, of: other, from: 0, limit: 1) == 0)
  }

  @Test("equal lists hash alike; lists of other splits of the same bytes differ")
  func equality() {
    #expect(UIDList(["AB", "C"]) != UIDList(["A", "BC"]))
    #expect(Set([UIDList(["A", "B"]), UIDList(["A", "B"]), UIDList(["AB"])]).count == 2)
    #expect(UIDList(["A"]) == ["A"])
    #expect(["A"] == UIDList(["A"]))
    #expect(UIDList(["A"]).description == #"["A"]"#)
  }

  @Test(
    "the store's reader takes out a list of plain strings, and leaves any other to the general reader, which reads it as before",
    arguments: [
      ("<array><string>A</string><string>B</string></array>", ["A", "B"], true),
      ("<array>\n\t<string>A</string>\n</array>", ["A"], true),
      ("<array></array>", [], true),
      ("<array/>", [], false),
      ("<array><string>A&amp;B</string></array>", ["A&B"], false),
      ("<array><string>A</string><!-- c --><string>B</string></array>", ["A", "B"], false),
      ("<array><string/><string>B</string></array>", ["", "B"], false),
      ("<array><string><![CDATA[A]]></string></array>", ["A"], false),
      // As tpns writes a list (a line a UID, two tabs in), which the reader
      // takes in one loop; then other shapes after, and markup where a UID
      // would be.
      (
        "<array>\n\t\t<string>ABCDEFGHJKLMNPRSTUVW</string>\n\t\t<string>0123456789ABCDEFGHJK</string>\n\t</array>",
        ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK"], true
      ),
      (
        "<array>\n\t\t<string>ABCDEFGHJKLMNPRSTUVW</string>\n\t\t<string>A</string>\n\t\t<string>0123456789ABCDEFGHJK</string></array>",
        ["ABCDEFGHJKLMNPRSTUVW", "A", "0123456789ABCDEFGHJK"], true
      ),
      (
        "<array>\n\t\t<string>ABCDEFGHJKLMNPRSTUVW</string>\n\t\t<string>ABC&amp;DEFGHJKLMNPQ</string>\n\t</array>",
        ["ABCDEFGHJKLMNPRSTUVW", "ABC&DEFGHJKLMNPQ"], false
      ),
    ] as [(String, [String], Bool)])
  func extraction(array: String, expected: [String], isTakenOut: Bool) throws {
    let text = "<plist><dict><key>K</key><string>v</string><key>UIDs</key>\(array)</dict></plist>"
    let (value, list) = try PropertyListXML.parse(Array(text.utf8), extractingList: "UIDs")
    let general = try PropertyListXML.parse(Array(text.utf8))
    guard case .dictionary(var members) = value, case .dictionary(let all) = general else {
      Issue.record("not a dictionary")
      return
    }
    #expect((list != nil) == isTakenOut)
    if let list {
      #expect(list == expected)
      #expect(members["UIDs"] == nil)
      members["UIDs"] = .array(list.map(PropertyListValue.string))
    }
    #expect(members == all)
    #expect(members["UIDs"] == .array(expected.map(PropertyListValue.string)))
  }

  @Test(
    "a top-level list key twice is refused, whichever reader took the first; the same key deeper is not the list",
    arguments: [
      ("<key>UIDs</key><array/><key>UIDs</key><array/>", true),
      ("<key>UIDs</key><array><string>A</string></array><key>UIDs</key><array/>", true),
      ("<key>UIDs</key><array/><key>UIDs</key><array><string>A</string></array>", true),
      (
        "<key>UIDs</key><array><string>A</string></array><key>S</key><dict><key>UIDs</key><array><string>B</string></array></dict>",
        false
      ),
    ] as [(String, Bool)])
  func keyTwice(members: String, isRefused: Bool) {
    let text = Array("<plist><dict>\(members)</dict></plist>".utf8)
    let result = Result { try PropertyListXML.parse(text, extractingList: "UIDs") }
    #expect((try? result.get()) == nil ? isRefused : !isRefused)
    if isRefused {
      #expect(throws: PropertyListXML.ParseError.self) { try PropertyListXML.parse(text) }
    }
  }

  @Test(
    "the writer writes the list under its key, in key order, as the general writer does",
    arguments: [
      ["A", "B&C", "D"],
      // 20-byte UIDs (their lines made by word stores), then with one of
      // them to escape, first or last.
      uids, uids + ["ABCDEFGHJ&LMNPRSTUVW"], ["ABCDEFGHJKLMNPRSTUV>"] + uids,
      ["ABCDEFGHJKLMNPRSTUVW", "ABCDEFGHJKLMNPRSTUVWX"],
    ])
  func writing(strings: [String]) throws {
    let list = UIDList(strings)
    let members: [String: PropertyListValue] = ["A": .string("a"), "Z": .integer(1)]
    let written = try PropertyListXML.serialize(
      checking: .dictionary(members), list: (key: "UIDs", uids: list)
    ).get()
    var all = members
    all["UIDs"] = .array(list.map(PropertyListValue.string))
    #expect(written == PropertyListXML.serialize(.dictionary(all)))
    #expect(
      try PropertyListXML.serialize(checking: .dictionary([:]), list: (key: "UIDs", uids: [])).get()
        == PropertyListXML.serialize(.dictionary(["UIDs": .array([])])))
  }

  @Test("a list whose strings XML cannot hold is refused by the checking writer")
  func unwritable() {
    let result = PropertyListXML.serialize(
      checking: .dictionary([:]), list: (key: "UIDs", uids: ["A", "B\u{1}"]))
    #expect(throws: PropertyListXML.Unwritable(text: "B\u{1}")) { try result.get() }
  }

  @Test("the digest of a list is the digest of its strings, byte for byte as before")
  func digest() {
    #expect(UIDListDigest.of(UIDList(Self.uids)) == UIDListDigest.of(Self.uids))
    // Computed by the [String] version before UIDList (a00e0a2), for these 12 UIDs.
    let strings = Self.uids
    var reference: UInt64 = 0x243f_6a88_85a3_08d3 ^ UInt64(strings.count)
    func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
      let product = (hash ^ word) &* 0x9e37_79b9_7f4a_7c15
      return product ^ (product >> 29)
    }
    for uid in strings {
      let bytes = Array(uid.utf8)
      var index = 0
      while index + 8 <= bytes.count {
        var word: UInt64 = 0
        for offset in 0..<8 { word |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
        reference = mix(reference, word)
        index += 8
      }
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while index < bytes.count {
        tail |= UInt64(bytes[index]) << shift
        shift += 8
        index += 1
      }
      reference = mix(mix(reference, tail), UInt64(bytes.count))
    }
    reference ^= reference >> 32
    let hex = String(reference, radix: 16)
    #expect(
      UIDListDigest.of(UIDList(strings)) == String(repeating: "0", count: 16 - hex.count) + hex)
  }

  @Test("a prefix shares the buffer, equals a copy of those elements, and changes alone")
  func prefixes() {
    let list = UIDList(Self.uids)
    var prefix = list.prefix(5)
    #expect(prefix == UIDList(Self.uids.prefix(5)))
    #expect(prefix.hashValue == UIDList(Self.uids.prefix(5)).hashValue)
    #expect(prefix.byteCount == Self.uids.prefix(5).reduce(0) { $0 + $1.utf8.count })
    #expect(list.prefix(0) == UIDList())
    prefix.append("X")
    prefix.replaceSubrange(0..<1, with: ["Y"])
    prefix.append(contentsOf: list, 11..<12)
    #expect(prefix == ["Y"] + Array(Self.uids[1..<5]) + ["X", Self.uids[11]])
    #expect(list == UIDList(Self.uids))
    #expect(UIDRuns(items: [.run(from: 0, count: 7)]).expanded(against: list) == list.prefix(7))
  }
}
