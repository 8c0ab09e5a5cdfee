import Foundation
import TPNSProtocol
import TPNSTestSupport
import Testing

@testable import TPNSKit

/// The acknowledged list written as runs of the stored list (`UIDRuns`), and
/// the stored list's digest (`UIDsDigest`) that says whether those runs, and
/// the list's earlier check, still hold.
@Suite struct UIDRunsTests {
  static let stored = (0..<10).map { String(format: "UID%017d", $0) }
  static let other = "ABCDEFGHJKLMNPRSTUVW"

  @Test(
    "a list is written as runs of the stored list and UIDs it lacks, and read back as it was",
    arguments: [
      ([Int](), [UIDRuns.Item]()),
      (Array(0..<10), [.run(from: 0, count: 10)]),
      (Array(0..<9), [.run(from: 0, count: 9)]),
      (Array(1..<10), [.run(from: 1, count: 9)]),
      ([0, 1, 2, 5, 6, 7], [.run(from: 0, count: 3), .run(from: 5, count: 3)]),
      (
        [0, 1, -1, 2, 3],
        [.run(from: 0, count: 2), .uid(UIDRunsTests.other), .run(from: 2, count: 2)]
      ),
      ([9, 0, 1], [.run(from: 9, count: 1), .run(from: 0, count: 2)]),
      ([-1], [.uid(UIDRunsTests.other)]),
    ] as [([Int], [UIDRuns.Item])])
  func roundTrip(positions: [Int], items: [UIDRuns.Item]) throws {
    let list = positions.map { $0 < 0 ? Self.other : Self.stored[$0] }
    let runs = UIDRuns(UIDList(list), against: UIDList(Self.stored))
    #expect(runs.items == items)
    let read = try UIDRuns.read(runs.propertyList, key: "k", storedCount: Self.stored.count)
    #expect(read.expanded(against: UIDList(Self.stored)) == list)
  }

  @Test("many UIDs out of place are found by index, not by a scan each")
  func manyMisses() {
    let stored = (0..<1_000).map { String(format: "UID%017d", $0) }
    let reversed = Array(stored.reversed())
    let runs = UIDRuns(UIDList(reversed), against: UIDList(stored))
    #expect(runs.items.count == 1_000)
    #expect(runs.expanded(against: UIDList(stored)) == reversed)
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
      try UIDRuns.read(.array([item]), key: "k", storedCount: Self.stored.count)
    } throws: { error in
      "\(error)".contains("'k › 0'") && "\(error)".contains(reason)
    }
  }

  @Test("the digest changes with any UID, its place, or the list's length")
  func digest() {
    let digest = UIDListDigest.of(Self.stored)
    #expect(digest.count == 16)
    #expect(UIDListDigest.of(Self.stored) == digest)
    var changed = Self.stored
    changed[4] = Self.other
    var swapped = Self.stored
    swapped.swapAt(2, 3)
    let variants = [
      changed, swapped, Array(Self.stored.dropLast()), Self.stored + [Self.other], [],
    ]
    #expect(Set(variants.map(UIDListDigest.of)).count == variants.count)
    #expect(!variants.map(UIDListDigest.of).contains(digest))
    // Where one UID ends and the next begins counts too.
    #expect(UIDListDigest.of(["AB", "C"]) != UIDListDigest.of(["A", "BC"]))
  }

  /// A store of `uids`, in sync with `server`, as tpns writes it.
  func writtenStore(_ uids: [String], server: String) throws -> (StateStore, TemporaryDirectory) {
    let directory = try TemporaryDirectory()
    let store = StateStore(path: directory.file("state.plist"))
    try store.update { state in
      state.uids = UIDList(uids)
      state.servers[server] = Acknowledgement(uids: UIDList(uids.dropLast()))
    }
    return (store, directory)
  }

  @Test("a 10,000-UID store holds the list once: the server's copy is one run and the digest")
  func compact() throws {
    let uids = (0..<10_000).map { String(format: "BIG%017d", $0) }
    let (store, directory) = try writtenStore(uids, server: "http://a/tpns")
    let text = try String(contentsOfFile: store.path, encoding: .utf8)
    #expect(text.components(separatedBy: "<string>BIG").count - 1 == 10_000)
    #expect(text.contains("<key>UIDRuns</key>"))
    #expect(text.contains("<key>UIDsDigest</key>"))
    let list = try #require(
      try PropertyListSerialization.propertyList(
        from: Data(text.utf8), format: nil) as? [String: Any])
    let entry = try #require(
      (list["Servers"] as? [String: Any])?["http://a/tpns"] as? [String: Any])
    let runs = try #require(entry["UIDRuns"] as? [[String: Int]])
    #expect(runs == [["From": 0, "Count": 9_999]])
    #expect(
      try StateStore(path: store.path).load().acknowledged(at: "http://a/tpns").uids
        == UIDList(uids.dropLast()))
    _ = directory
  }

  @Test(
    "a list edited by hand is checked again, and the runs written for it are not read: the server's list is unknown, so the next sync sends it"
  )
  func handEdited() throws {
    let (store, directory) = try writtenStore(Self.stored, server: "http://a/tpns")
    #expect(try store.load().difference(at: "http://a/tpns").toAdd == [Self.stored[9]])
    // Another UID in place of the first: the runs would now name it as held.
    var text = try String(contentsOfFile: store.path, encoding: .utf8)
    text = text.replacingOccurrences(of: Self.stored[0], with: Self.other.lowercased())
    try text.write(toFile: store.path, atomically: true, encoding: .utf8)
    let state = try StateStore(path: store.path).load()
    #expect(state.uids.first == Self.other)
    #expect(state.acknowledged(at: "http://a/tpns").uids == nil)
    #expect(state.difference(at: "http://a/tpns").toAdd == [Self.other] + Self.stored.dropFirst())
    // A duplicate made by hand is still refused, as in a store without the digest.
    text = text.replacingOccurrences(of: Self.stored[1], with: Self.stored[2])
    try text.write(toFile: store.path, atomically: true, encoding: .utf8)
    #expect {
      try StateStore(path: store.path).load()
    } throws: { error in
      "\(error)".contains("holds \(Self.stored[2]) twice")
    }
    _ = directory
  }

  @Test(
    "a server's list written out, as tpns wrote it before runs, is still read; both forms at once are refused"
  )
  func writtenOut() throws {
    let listed = Self.stored.map(PropertyListValue.string)
    let written = PropertyListValue.dictionary(["UIDs": .array(listed)])
    #expect(
      try Acknowledgement.read(written, server: "s", storedUIDs: UIDList(Self.stored)).uids
        == UIDList(Self.stored))
    let both = PropertyListValue.dictionary([
      "UIDs": .array(listed),
      "UIDRuns": .array([.dictionary(["From": .integer(0), "Count": .integer(1)])]),
    ])
    #expect {
      try Acknowledgement.read(both, server: "s", storedUIDs: UIDList(Self.stored))
    } throws: { error in
      "\(error)".contains("keep one of the two")
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
        try Acknowledgement.read(value, server: "s", storedUIDs: UIDList(Self.stored))
      }
    }
  }

  @Test(
    "a server's list with settings is written out (UIDs), as a tpns from before runs reads it; without settings, as runs"
  )
  func settingsWriteTheListOut() throws {
    let directory = try TemporaryDirectory()
    let store = StateStore(path: directory.file("state.plist"))
    let setting = try MappingSettings(interval: 30)
    try store.update { state in
      state.uids = UIDList(Self.stored)
      state.settings[Self.stored[0]] = setting
      state.servers["http://a/tpns"] = Acknowledgement(
        uids: UIDList(Self.stored), settings: [Self.stored[0]: setting])
      state.servers["http://b/tpns"] = Acknowledgement(uids: UIDList(Self.stored))
    }
    let data = try #require(FileManager.default.contents(atPath: store.path))
    let list = try #require(
      try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    let servers = try #require(list["Servers"] as? [String: [String: Any]])
    #expect(servers["http://a/tpns"]?["UIDs"] as? [String] == Self.stored)
    #expect(servers["http://a/tpns"]?["UIDRuns"] == nil)
    #expect(servers["http://b/tpns"]?["UIDs"] == nil)
    #expect(servers["http://b/tpns"]?["UIDRuns"] != nil)
    let read = try StateStore(path: store.path).load()
    #expect(read.acknowledged(at: "http://a/tpns").settings == [Self.stored[0]: setting])
    #expect(read.acknowledged(at: "http://b/tpns").uids == UIDList(Self.stored))
  }
}
