import Foundation
import TPNSProtocol
import Testing

@testable import TPNSEmulator

/// A mapsync is written as its difference when the list only lost UIDs and
/// gained some at its end, and rewritten otherwise: either way the registry
/// must hold the list in the order sent, with the settings an entry sets, the
/// others kept, and each kept UID's creation time.
@Suite("cmd=mapsync: the list written as its difference or rewritten")
struct MapsyncDifferenceTests {
  /// A list of entries: a number for a UID, with `i` for an interval of 60 s.
  static func entries(_ spec: String) -> [MapEntry] {
    spec.split(separator: " ").map { item in
      let interval = item.hasSuffix("i") ? 60 : nil
      return MapEntry(uid: TestEmulator.uid(Int(item.prefix { $0.isNumber })!), interval: interval)
    }
  }

  @Test(
    "each second list replaces the first one exactly",
    arguments: [
      ("1 2 3", "1 2 3 4"),  // added at the end: in place
      ("1 2 3", "1 3"),  // removed in the middle: in place
      ("1 2 3", "2 3 4 5"),  // removed first, two added: in place
      ("1 2 3", ""),  // emptied
      ("", "1 2"),  // from nothing
      ("1 2 3", "3 2 1"),  // reordered: rewritten
      ("1 2 3", "1 4 2 3"),  // inserted in the middle: rewritten
      ("1 2i 3", "1 2 3"),  // the interval kept when the entry does not set it
      ("1 2 3", "1 2i 3"),  // an interval set on a kept UID
      ("1 2 3", "1 3 2i 4"),  // reordered with a setting: rewritten
    ])
  func replaces(first: String, second: String) throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    func send(_ spec: String) throws {
      let map = TestEmulator.percentEncoded(MapPayload.encode(entries: Self.entries(spec)))
      let reply = try server.post(
        "cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map=\(map)")
      #expect(reply.status == 200, "\(reply.body)")
    }
    try send(first)
    let createdBefore = Dictionary(
      try server.registry("mappings").map { ($0["uid"] as! String, "\($0["created_at"] ?? "")") },
      uniquingKeysWith: { first, _ in first })
    try send(second)
    let mappings = try server.registry("mappings")
    let expected = Self.entries(second)
    #expect(mappings.compactMap { $0["uid"] as? String } == expected.map(\.uid))
    let setInFirst = Set(Self.entries(first).filter { $0.interval != nil }.map(\.uid))
    for (mapping, entry) in zip(mappings, expected) {
      let uid = entry.uid
      let interval = entry.interval ?? (setInFirst.contains(uid) ? 60 : nil)
      #expect(mapping["interval"] as? Int == interval, "\(uid)")
      if let created = createdBefore[uid] {
        #expect("\(mapping["created_at"] ?? "")" == created, "\(uid) keeps its creation time")
      }
    }
  }

  @Test(
    "9,999 UIDs, then one more at the end (10,000, the most a mapsync takes), then one fewer in the middle, in order"
  )
  func large() throws {
    let server = try TestEmulator()
    let token = try server.registerIOS()
    let uids = (0..<10_000).map { TestEmulator.uid($0) }
    var fewer = uids
    fewer.remove(at: 5_000)
    for list in [Array(uids.dropLast()), uids, fewer] {
      let map = TestEmulator.percentEncoded(MapPayload.encode(list))
      #expect(
        try server.post("cmd=mapsync&os=ios&appid=\(TestEmulator.appid)&udid=\(token)&map=\(map)")
          .status == 200)
      #expect(try server.uids(of: token) == list)
    }
  }
}
