import Foundation
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// Stores as earlier versions wrote them: the acknowledged list as runs of
/// the stored list (`UIDRuns`), and the stored list's digest (`UIDsDigest`)
/// that says whether those runs still name the UIDs they were written for.
/// They are read, and written plain on their next change.
@Suite struct UIDRunsTests {
  static let stored = (0..<10).map { String(format: "UID%017d", $0) }
  static let other = "ABCDEFGHJKLMNPRSTUVW"
  /// `UIDsDigest` of ``stored`` as earlier versions wrote it.
  static let storedDigest = "5e6f05c999653c8c"

  @Test(
    "runs expand to the stored UIDs they name, and UIDs written out as they are",
    arguments: [
      ([PropertyListValue](), [Int]()),
      ([.dictionary(["From": .integer(0), "Count": .integer(10)])], Array(0..<10)),
      ([.dictionary(["From": .integer(1), "Count": .integer(9)])], Array(1..<10)),
      (
        [
          .dictionary(["From": .integer(0), "Count": .integer(2)]), .string(UIDRunsTests.other),
          .dictionary(["From": .integer(9), "Count": .integer(1)]),
        ],
        [0, 1, -1, 9]
      ),
    ] as [([PropertyListValue], [Int])])
  func expand(items: [PropertyListValue], positions: [Int]) throws {
    let list = positions.map { $0 < 0 ? Self.other : Self.stored[$0] }
    #expect(try UIDRuns.expand(.array(items), key: "k", against: Self.stored) == list)
  }

  @Test(
    "a run that is not one of the stored list is refused, naming the item",
    arguments: [
      (PropertyListValue.dictionary(["From": .integer(0), "Count": .integer(11)]), "is not a run"),
      (.dictionary(["From": .integer(-1), "Count": .integer(1)]), "is not a run"),
      (.dictionary(["From": .integer(3), "Count": .integer(0)]), "is not a run"),
      (.dictionary(["From": .integer(Int.max), "Count": .integer(Int.max)]), "is not a run"),
      (.dictionary(["From": .integer(0)]), "nothing else"),
      (
        .dictionary(["From": .integer(0), "Count": .integer(1), "To": .integer(1)]), "nothing else"
      ),
      (.integer(3), "should be a string or dictionary"),
    ])
  func refused(item: PropertyListValue, reason: String) {
    #expect {
      try UIDRuns.expand(.array([item]), key: "k", against: Self.stored)
    } throws: { error in
      "\(error)".contains("'k › 0'") && "\(error)".contains(reason)
    }
  }

  @Test(
    "a server's list written out is read; written out and as runs at once is refused"
  )
  func writtenOut() throws {
    let listed = Self.stored.map(PropertyListValue.string)
    let written = PropertyListValue.dictionary(["UIDs": .array(listed)])
    #expect(
      try Acknowledgement.read(written, server: "s", storedUIDs: Self.stored).uids
        == Self.stored)
    let both = PropertyListValue.dictionary([
      "UIDs": .array(listed),
      "UIDRuns": .array([.dictionary(["From": .integer(0), "Count": .integer(1)])]),
    ])
    #expect {
      try Acknowledgement.read(both, server: "s", storedUIDs: Self.stored)
    } throws: { error in
      "\(error)".contains("keep one of the two")
    }
  }

  @Test(
    "a server's list other than the stored one is read as written, in canonical form",
    arguments: [
      [String](), Array(stored.prefix(9)), stored.reversed(), [other.lowercased()] + stored,
    ])
  func otherList(uids: [String]) throws {
    let value = PropertyListValue.dictionary(["UIDs": .array(uids.map(PropertyListValue.string))])
    #expect(
      try Acknowledgement.read(value, server: "s", storedUIDs: Self.stored).uids
        == uids.map { $0.uppercased() })
  }

  @Test(
    "a server's list other than the stored one is checked in full and refused",
    arguments: [
      (stored + [stored[3]], "twice"), (stored + ["not a UID"], "not allowed in a UID"),
      (Array(stored.dropLast()) + ["UID000000000000000009"], "20 characters"),
    ])
  func otherListRefused(uids: [String], reason: String) {
    let value = PropertyListValue.dictionary(["UIDs": .array(uids.map(PropertyListValue.string))])
    #expect {
      try Acknowledgement.read(value, server: "s", storedUIDs: Self.stored)
    } throws: { error in
      "\(error)".contains("'Servers › s › UIDs") && "\(error)".contains(reason)
    }
    let notText = PropertyListValue.dictionary([
      "UIDs": .array(Self.stored.dropLast().map(PropertyListValue.string) + [.integer(9)])
    ])
    #expect(throws: StoreFormatError.self) {
      try Acknowledgement.read(notText, server: "s", storedUIDs: Self.stored)
    }
  }

  @Test("a server's list equal to the stored one only as Unicode text is refused, not taken as it")
  func lookAlikeList() {
    // U+212A KELVIN SIGN is canonically equivalent to K: String's == takes them as equal.
    let value = PropertyListValue.dictionary([
      "UIDs": .array([.string("ABCDEFGHJ\u{212A}LMNPRSTUVW")])
    ])
    #expect {
      try Acknowledgement.read(value, server: "s", storedUIDs: [Self.other])
    } throws: { error in
      "\(error)".contains("'Servers › s › UIDs") && "\(error)".contains("U+212A")
    }
  }

  @Test(
    "a server's UIDs of the wrong type is named as such, also beside UIDRuns",
    arguments: [
      PropertyListValue.integer(3), .dictionary([:]),
      .array([.string(UIDRunsTests.stored[0]), .integer(1)]),
    ])
  func wrongTypeBesideRuns(uids: PropertyListValue) {
    let value = PropertyListValue.dictionary([
      "UIDs": uids, "UIDRuns": .array([.dictionary(["From": .integer(0), "Count": .integer(1)])]),
    ])
    #expect {
      try Acknowledgement.read(value, server: "s", storedUIDs: Self.stored)
    } throws: { error in
      "\(error)".contains("'Servers › s › UIDs'") && !"\(error)".contains("keep one of the two")
    }
  }

  @Test(
    "runs with a UID written twice, or a stored UID written out, are checked in full and refused"
  )
  func duplicateInRuns() {
    for items: [PropertyListValue] in [
      [
        .dictionary(["From": .integer(0), "Count": .integer(3)]),
        .dictionary(["From": .integer(2), "Count": .integer(1)]),
      ],
      [.dictionary(["From": .integer(0), "Count": .integer(3)]), .string(Self.stored[1])],
      [.string(Self.other), .string(Self.other)],
    ] {
      let value = PropertyListValue.dictionary(["UIDRuns": .array(items)])
      #expect(throws: StoreFormatError.self) {
        try Acknowledgement.read(value, server: "s", storedUIDs: Self.stored)
      }
    }
  }

  @Test("the digest is the one earlier versions wrote, and changes with any UID or split")
  func digest() {
    // Values written by the earlier versions' digest.
    #expect(UIDRuns.digest(of: Self.stored) == Self.storedDigest)
    #expect(UIDRuns.digest(of: ["AB", "C"]) == "35827bd156c2c819")
    #expect(UIDRuns.digest(of: ["A", "BC"]) == "8a527d81917f6d80")
    #expect(UIDRuns.digest(of: []) == "243f6a88a19c625b")
    var swapped = Self.stored
    swapped.swapAt(2, 3)
    #expect(UIDRuns.digest(of: swapped) != Self.storedDigest)
  }

  /// A store as earlier versions wrote it: `stored`, its digest, and a
  /// server that acknowledged all but the last UID, as one run.
  static func oldStore(uids: [String] = stored) -> String {
    let lines = uids.map { "\t\t<string>\($0)</string>\n" }.joined()
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>Servers</key>
      \t<dict>
      \t\t<key>http://a/tpns</key>
      \t\t<dict>
      \t\t\t<key>UIDRuns</key>
      \t\t\t<array>
      \t\t\t\t<dict>
      \t\t\t\t\t<key>Count</key>
      \t\t\t\t\t<integer>9</integer>
      \t\t\t\t\t<key>From</key>
      \t\t\t\t\t<integer>0</integer>
      \t\t\t\t</dict>
      \t\t\t</array>
      \t\t</dict>
      \t</dict>
      \t<key>UIDs</key>
      \t<array>
      \(lines)\t</array>
      \t<key>UIDsDigest</key>
      \t<string>\(storedDigest)</string>
      </dict>
      </plist>

      """
  }

  @Test(
    "a store with UIDRuns and UIDsDigest is read as the facts it holds, and written plain on its next change"
  )
  func oldStoreRead() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    try Self.oldStore().write(toFile: path, atomically: true, encoding: .utf8)
    let store = Store(path: path)
    let state = try store.load()
    #expect(state.uids == Self.stored)
    #expect(state.acknowledged(at: "http://a/tpns").uids == Array(Self.stored.dropLast()))
    #expect(!state.acknowledged(at: "http://a/tpns").listIsUnknown)
    #expect(state.difference(at: "http://a/tpns").toAdd == [Self.stored[9]])
    #expect(state.difference(at: "http://a/tpns").toRemove.isEmpty)
    try store.update { $0.uids.append(Self.other) }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!text.contains("UIDRuns"))
    #expect(!text.contains("UIDsDigest"))
    let list = try #require(
      try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil)
        as? [String: Any])
    let servers = try #require(list["Servers"] as? [String: [String: Any]])
    #expect(servers["http://a/tpns"]?["UIDs"] as? [String] == Array(Self.stored.dropLast()))
    #expect(list["UIDs"] as? [String] == Self.stored + [Self.other])
    #expect(
      try Store(path: path).load().acknowledged(at: "http://a/tpns").uids
        == Array(Self.stored.dropLast()))
  }

  @Test(
    "an old store whose list was edited by hand is checked again, and its runs are not read: the server's list is unknown, so the next sync sends it"
  )
  func handEdited() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state.plist")
    // Another UID in place of the first: the runs would now name it as held.
    var edited = Self.stored
    edited[0] = Self.other.lowercased()
    try Self.oldStore(uids: edited).write(toFile: path, atomically: true, encoding: .utf8)
    let state = try Store(path: path).load()
    #expect(state.uids.first == Self.other)
    #expect(state.acknowledged(at: "http://a/tpns").uids == nil)
    #expect(state.acknowledged(at: "http://a/tpns").listIsUnknown)
    // A duplicate made by hand is still refused.
    edited[1] = edited[2]
    try Self.oldStore(uids: edited).write(toFile: path, atomically: true, encoding: .utf8)
    #expect {
      try Store(path: path).load()
    } throws: { error in
      "\(error)".contains("holds \(Self.stored[2]) twice")
    }
  }

  @Test("a server's list is written out as a plain list, and the store holds no digest")
  func writtenPlain() throws {
    let directory = try TemporaryDirectory()
    let store = Store(path: directory.file("state.plist"))
    let setting = try MappingSettings(interval: 30)
    try store.update { state in
      state.uids = Self.stored
      state.settings[Self.stored[0]] = setting
      state.servers["http://a/tpns"] = Acknowledgement(
        uids: Self.stored, settings: [Self.stored[0]: setting])
      state.servers["http://b/tpns"] = Acknowledgement(uids: Array(Self.stored.dropLast()))
    }
    let data = try #require(FileManager.default.contents(atPath: store.path))
    let list = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    #expect(list["UIDsDigest"] == nil)
    let servers = try #require(list["Servers"] as? [String: [String: Any]])
    #expect(servers["http://a/tpns"]?["UIDs"] as? [String] == Self.stored)
    #expect(servers["http://b/tpns"]?["UIDs"] as? [String] == Array(Self.stored.dropLast()))
    #expect(servers["http://a/tpns"]?["UIDRuns"] == nil)
    #expect(servers["http://b/tpns"]?["UIDRuns"] == nil)
    let read = try Store(path: store.path).load()
    #expect(read.acknowledged(at: "http://a/tpns").settings == [Self.stored[0]: setting])
    #expect(read.acknowledged(at: "http://b/tpns").uids == Array(Self.stored.dropLast()))
  }
}
