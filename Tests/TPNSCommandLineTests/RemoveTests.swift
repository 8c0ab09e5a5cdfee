import Foundation
import TPNSEmulator
import TPNSTestSupport
import Testing

/// `tpns remove`: repeated `--uid`, all or nothing, and bad indexes.
@Suite struct RemoveTests {
  static let uids = ["ABCDEFGHJKLMNPRSTUVW", "0123456789ABCDEFGHJK", "REMOVE00000000000003"]

  /// An emulator and a store with the three UIDs registered and synced.
  static func stored() throws -> EndToEnd {
    let e2e = try EndToEnd()
    #expect(try e2e.tpns.run(["register", EndToEnd.token]).status == 0)
    #expect(try e2e.tpns.run(["add"] + uids).status == 0)
    return e2e
  }

  @Test("a repeated --uid removes every one given, with the indexes, in one mapsync")
  func repeatedUID() throws {
    let e2e = try Self.stored()
    let result = try e2e.tpns.run(["remove", "--uid", Self.uids[0], "--uid", Self.uids[2]])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == "removed 0  \(Self.uids[0])\nremoved 2  \(Self.uids[2])\n"
        + "synced 1 UID to \(e2e.server.server)\n")
    #expect(try e2e.store.load().uids == [Self.uids[1]])
    #expect(try e2e.server.mappedUIDs(udid: EndToEnd.token) == [Self.uids[1]])
  }

  @Test(
    "one UID or index not in the list removes none of them: 65, nothing sent, the store unchanged",
    arguments: [
      ["--uid", uids[0], "--uid", "ZZZZZZZZZZZZZZZZZZZZ"],
      ["--uid", "ZZZZZZZZZZZZZZZZZZZZ", "--uid", uids[0]],
      ["0", "--uid", "ZZZZZZZZZZZZZZZZZZZZ"],
      ["0", "7"],
    ])
  func allOrNothing(arguments: [String]) throws {
    let e2e = try Self.stored()
    let before = contents(of: e2e.tpns.store)
    let requests = try e2e.server.requests().count
    let result = try e2e.tpns.run(["remove"] + arguments)
    #expect(result.status == 65)
    #expect(result.stdout == "")
    #expect(contents(of: e2e.tpns.store) == before)
    #expect(try e2e.server.requests().count == requests)
  }

  @Test(
    "a bad index is bad data like one out of range: 65 with the way to see the indexes",
    arguments: ["abc", "1.5", "-1", "99999999999999999999999", "", "0x1"])
  func badIndex(index: String) throws {
    let e2e = try Self.stored()
    let before = contents(of: e2e.tpns.store)
    let result = try e2e.tpns.run(["remove", "1", index])
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "Error: invalid index '\(index)': an index is a whole number from 0, as 'tpns list' "
        + "prints it\nRun 'tpns list' to see the indexes.\n")
    #expect(contents(of: e2e.tpns.store) == before)
  }

  @Test("an index out of range says the same next step")
  func outOfRange() throws {
    let e2e = try Self.stored()
    let result = try e2e.tpns.run(["remove", "3"])
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "Error: no UID at index 3: the list has indexes 0 to 2\nRun 'tpns list' to see the indexes.\n"
    )
  }
}
