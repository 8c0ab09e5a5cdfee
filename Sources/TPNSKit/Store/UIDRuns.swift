/// A server's acknowledged list written against the store's own list: the
/// `UIDRuns` of a `Servers` entry. Each item is either a run of the stored
/// `UIDs` (`{From: index, Count: n}`, the UIDs at `From..<From+Count`) or one
/// UID written out (a UID the store no longer lists, or one out of order).
///
/// Why: an acknowledged list is almost always the stored list, or the stored
/// list one change ago. Written out, a 10,000-UID store held the same 400 KB
/// twice, and every command read, parsed, wrote and synced both copies; as
/// runs the second copy is a few dozen bytes (`{From: 0, Count: 10000}`).
///
/// Runs mean something only against the list they were written against:
/// after a hand edit of `UIDs` they would name other UIDs. So they are read
/// only while the list still has the ``UIDListDigest`` it was written with;
/// otherwise the acknowledged list is taken as unknown (the next sync sends
/// the whole list, which makes it known again).
///
///     UIDRuns(["A…", "B…", "X…"], against: ["A…", "B…", "C…"]).items
///     // [.run(from: 0, count: 2), .uid("X…")]
struct UIDRuns: Equatable {
  /// One item of the list.
  enum Item: Equatable {
    /// The stored UIDs at `from..<from+count`.
    case run(from: Int, count: Int)
    /// A UID written out.
    case uid(String)
  }

  /// The items, in order.
  var items: [Item]

  enum Key {
    static let from = "From"
    static let count = "Count"
  }

  /// `acknowledged` as runs of `stored` (both without duplicates).
  init(_ acknowledged: UIDList, against stored: UIDList) {
    var items: [Item] = []
    // Where the next acknowledged UID is expected in `stored`: the next one
    // of the run being built. Only when it is not there is `stored` searched
    // (by index after a few misses, which a 10,000-UID list rarely has).
    var next = 0
    var index: [String: Int]?
    var misses = 0
    func position(of uid: String) -> Int? {
      if let index { return index[uid] }
      misses += 1
      if misses > 8 {
        index = Dictionary(stored.enumerated().map { ($1, $0) }) { first, _ in first }
        return index![uid]
      }
      return stored.firstIndex(of: uid)
    }
    var item = 0
    while item < acknowledged.count {
      // A run goes on as far as both lists agree, compared in place (no
      // `String` per UID): the whole of a list one change from the stored one.
      if next < stored.count, case .run(let from, let count)? = items.last {
        let matched = stored.matchingRun(
          from: next, of: acknowledged, from: item, limit: acknowledged.count - item)
        if matched > 0 {
          items[items.count - 1] = .run(from: from, count: count + matched)
          next += matched
          item += matched
          continue
        }
      }
      if let found = position(of: acknowledged[item]) {
        items.append(.run(from: found, count: 1))
        next = found + 1
      } else {
        items.append(.uid(acknowledged[item]))
      }
      item += 1
    }
    self.items = items
  }

  /// Runs and UIDs as they are (for reading).
  init(items: [Item]) {
    self.items = items
  }

  /// The list these runs stand for, with `stored` the store's list.
  func expanded(against stored: UIDList) -> UIDList {
    // The stored list, or its start (a store one `add` past its server):
    // shared, not copied.
    if items.count == 1, case .run(0, let count) = items[0] {
      return count == stored.count ? stored : stored.prefix(count)
    }
    var uids = UIDList()
    // Room for all of it at once: appending a UID to a full buffer copied
    // the whole list again.
    uids.reserveCapacity(
      items.reduce(0) {
        if case .run(_, let count) = $1 { return $0 + count }
        return $0 + 1
      })
    for item in items {
      switch item {
      case .run(let from, let count): uids.append(contentsOf: stored, from..<from + count)
      case .uid(let uid): uids.append(uid)
      }
    }
    return uids
  }

  /// Whether the expanded list holds no UID twice and only canonical ones,
  /// as far as a cheap look can tell: runs each past the one before, and at
  /// most 8 UIDs written out (what tpns writes after a removal), each
  /// canonical, not in `stored` and not written twice. false: the expanded
  /// list is to be checked in full.
  func isPlainlyValid(against stored: UIDList) -> Bool {
    var end = 0
    var written: [String] = []
    for item in items {
      switch item {
      case .run(let from, let count):
        guard from >= end else { return false }
        end = from + count
      case .uid(let uid):
        guard written.count < 8, PackedUID(canonical: uid) != nil,
          !written.contains(uid), !stored.contains(uid)
        else { return false }
        written.append(uid)
      }
    }
    return true
  }

  /// The plist array: a run as {`From`, `Count`}, a UID as a string.
  var propertyList: PropertyListValue {
    .array(
      items.map {
        switch $0 {
        case .run(let from, let count):
          .dictionary([Key.from: .integer(from), Key.count: .integer(count)])
        case .uid(let uid): .string(uid)
        }
      })
  }

  /// The runs in `value` (stored at `key`), each checked against a list of
  /// `storedCount` UIDs. UIDs written out are checked by the caller.
  static func read(
    _ value: PropertyListValue, key: String, storedCount: Int
  ) throws(StoreFormatError) -> UIDRuns {
    guard case .array(let values) = value else {
      throw .wrongType(key: key, expected: "array", found: value)
    }
    var items: [Item] = []
    items.reserveCapacity(values.count)
    for (index, value) in values.enumerated() {
      let itemKey = "\(key) › \(index)"
      switch value {
      case .string(let uid): items.append(.uid(uid))
      case .dictionary(let run):
        guard case .integer(let from)? = run[Key.from], case .integer(let count)? = run[Key.count],
          run.count == 2
        else {
          throw .invalidValue(
            key: itemKey,
            reason: "a run is {\(Key.from): integer, \(Key.count): integer} and nothing else")
        }
        guard from >= 0, count >= 1, from <= storedCount - count else {
          throw .invalidValue(
            key: itemKey,
            reason: "\(Key.from) \(from), \(Key.count) \(count) is not a run of the "
              + "\(storedCount) stored UIDs (\(Key.from) from 0, \(Key.count) at least 1)")
        }
        items.append(.run(from: from, count: count))
      default:
        throw .wrongType(key: itemKey, expected: "string or dictionary", found: value)
      }
    }
    return UIDRuns(items: items)
  }
}
