#if canImport(Glibc)
  import Glibc
#endif

/// The store's list of device UIDs, in order: a collection of strings kept as
/// one buffer of their UTF-8 bytes and where each one ends.
///
/// Why not `[String]`: a UID is 20 bytes, past the 15 a `String` holds
/// inline, so each one was a heap object of its own. Reading a 10,000-UID
/// store made 10,000 of them (their allocation, reference counting and page
/// faults were half of `tpns list`); as one buffer it is a copy of 200 KB,
/// and hashing, comparing, listing and writing the list run on bytes.
///
/// A `String` is made when an element is read through the collection
/// interface; the store's own paths (``UIDListDigest``, the XML reader and
/// writer, `tpns list`) use ``withBytes(_:)`` and ``bytes(at:)``. Two lists
/// are equal, and ``contains(_:)`` and ``firstIndex(of:)`` find a string,
/// when the bytes are the same: `String`'s equality for UIDs, which are
/// ASCII, but not for text in two Unicode normal forms (`"é"` and `"e\u{301}"`
/// differ here, though equal as `String`s).
///
///     var list: UIDList = ["ABCDEFGHJKLMNPRSTUVW"]
///     list.append("0123456789ABCDEFGHJK")
///     list.firstIndex(of: "0123456789ABCDEFGHJK")  // 1
public struct UIDList: Sendable, Hashable {
  /// Every element's UTF-8 bytes, one after the other; possibly more after
  /// the last one's end, when this list is a prefix of another sharing its
  /// buffer (see ``prefix(_:)``), cut off at the next change.
  private var storage: [UInt8] = []
  /// Where each element ends in ``storage`` (the next one starts there).
  private var ends: [UInt32] = []

  /// An empty list.
  public init() {}

  /// The UIDs of `uids`, in their order.
  public init<S: Sequence>(_ uids: S) where S.Element == String {
    self.init()
    for uid in uids { append(uid) }
  }

  /// The list of the elements in `storage` ending where `ends` say (each a
  /// valid UTF-8 sequence, the last end `storage.count`): how the XML reader
  /// fills a list without a `String` per element.
  init(storage: [UInt8], ends: [UInt32]) {
    precondition(Int(ends.last ?? 0) == storage.count, "the last element ends the buffer")
    self.storage = storage
    self.ends = ends
  }

  /// The first `count` elements, sharing this list's buffer (their ends are
  /// copied, 4 bytes each; their bytes are not): the acknowledged list of a
  /// store one `add` past it, a 200 KB copy for 10,000 UIDs otherwise.
  func prefix(_ count: Int) -> UIDList {
    precondition(count >= 0 && count <= ends.count, "prefix longer than the list")
    var prefix = UIDList()
    prefix.storage = storage
    prefix.ends = Array(ends[..<count])
    return prefix
  }

  /// Drops the bytes past the last element's end (another list's, shared):
  /// before a change, which must not write into them.
  private mutating func trimStorage() {
    if storage.count > byteCount { storage.removeSubrange(byteCount...) }
  }

  public static func == (lhs: UIDList, rhs: UIDList) -> Bool {
    // By memcmp: `==` of arrays of integers compares element by element.
    guard lhs.ends.count == rhs.ends.count, lhs.byteCount == rhs.byteCount else { return false }
    guard !lhs.ends.isEmpty else { return true }
    return lhs.ends.withUnsafeBytes { left in
      rhs.ends.withUnsafeBytes { right in
        memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
      }
    }
      && lhs.withBytes { left, _ in
        rhs.withBytes { right, _ in
          left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
        }
      }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ends)
    withBytes { bytes, _ in hasher.combine(bytes: UnsafeRawBufferPointer(bytes)) }
  }

  /// Where element `index`'s bytes are in the buffer.
  private func range(at index: Int) -> Range<Int> {
    (index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])
  }

  /// The bytes of the element at `index`, for a comparison or a copy.
  func bytes(at index: Int) -> ArraySlice<UInt8> {
    storage[range(at: index)]
  }

  /// Calls `body` with the buffer of every element's bytes and where each
  /// ends (element `i` is `bytes[ends[i-1]..<ends[i]]`, the first from 0): a
  /// pass over the list without a `String` per element.
  public func withBytes<R>(
    _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt32>) throws -> R
  ) rethrows -> R {
    try storage.withUnsafeBufferPointer { storage in
      let bytes = UnsafeBufferPointer(rebasing: storage[..<byteCount])
      return try ends.withUnsafeBufferPointer { ends in try body(bytes, ends) }
    }
  }

  /// Whether every element is 20 bytes long, as every UID is: the lists
  /// whose lines the store's writer and `tpns list` make by word moves.
  public var isAllTwentyBytes: Bool {
    ends.withUnsafeBufferPointer { ends in ends.indices.allSatisfy { ends[$0] == 20 * ($0 + 1) } }
  }

  /// The number of bytes of all the elements.
  public var byteCount: Int { Int(ends.last ?? 0) }

  /// Appends `uid`.
  public mutating func append(_ uid: String) {
    trimStorage()
    storage.append(contentsOf: uid.utf8)
    ends.append(UInt32(storage.count))
  }

  /// Appends the elements of `other` at `positions`, bytes copied as they are.
  mutating func append(contentsOf other: UIDList, _ positions: Range<Int>) {
    guard !positions.isEmpty else { return }
    let start = other.range(at: positions.lowerBound).lowerBound
    let end = other.range(at: positions.upperBound - 1).upperBound
    trimStorage()
    let shift = Int64(storage.count) - Int64(start)
    storage.append(contentsOf: other.storage[start..<end])
    if shift == 0 {
      // Its bytes land where they were in `other` (a run from its start into
      // an empty list, say): the ends as they are, no map of each.
      ends.append(contentsOf: other.ends[positions])
    } else {
      ends.append(contentsOf: other.ends[positions].lazy.map { UInt32(Int64($0) + shift) })
    }
  }

  /// The index of the first element whose bytes are `uid`'s, if any.
  public func firstIndex(of uid: String) -> Int? {
    var uid = uid
    return uid.withUTF8 { wanted in
      withBytes { bytes, ends in
        if wanted.count == 20, let base = UnsafeRawPointer(bytes.baseAddress) {
          // A UID: compared as three words, not by a memcmp call each (most
          // of `tpns add` to 10,000 UIDs).
          var start = 0
          for index in ends.indices {
            let end = Int(ends[index])
            if end - start == 20, ByteScan.equal20(base + start, wanted.baseAddress!) {
              return index
            }
            start = end
          }
          return nil
        }
        var start = 0
        for index in ends.indices {
          let end = Int(ends[index])
          if end - start == wanted.count,
            wanted.isEmpty
              || memcmp(bytes.baseAddress! + start, wanted.baseAddress!, wanted.count) == 0
          {
            return index
          }
          start = end
        }
        return nil
      }
    }
  }

  /// Whether an element's bytes are `uid`'s: no `String` made per element.
  public func contains(_ uid: String) -> Bool {
    firstIndex(of: uid) != nil
  }

  /// How many elements from `index` on have the same bytes as `other`'s
  /// from `otherIndex` on, one for one, at most `limit`: compared in place,
  /// an element's length first.
  func matchingRun(from index: Int, of other: UIDList, from otherIndex: Int, limit: Int) -> Int {
    withBytes { bytes, ends in
      other.withBytes { otherBytes, otherEnds in
        let limit = Swift.min(limit, ends.count - index, otherEnds.count - otherIndex)
        var start = index == 0 ? 0 : Int(ends[index - 1])
        var otherStart = otherIndex == 0 ? 0 : Int(otherEnds[otherIndex - 1])
        var matched = 0
        while matched < limit {
          let end = Int(ends[index + matched])
          let otherEnd = Int(otherEnds[otherIndex + matched])
          let count = end - start
          guard count == otherEnd - otherStart else { break }
          if count == 20 {
            // A UID: three words, not a memcmp call.
            guard ByteScan.equal20(bytes.baseAddress! + start, otherBytes.baseAddress! + otherStart)
            else { break }
          } else if count > 0,
            memcmp(bytes.baseAddress! + start, otherBytes.baseAddress! + otherStart, count) != 0
          {
            break
          }
          matched += 1
          start = end
          otherStart = otherEnd
        }
        return matched
      }
    }
  }
}

extension UIDList: RandomAccessCollection, RangeReplaceableCollection {
  public var startIndex: Int { 0 }
  public var endIndex: Int { ends.count }
  public var count: Int { ends.count }
  public var isEmpty: Bool { ends.isEmpty }

  public subscript(position: Int) -> String {
    storage.withUnsafeBufferPointer {
      String(decoding: UnsafeBufferPointer(rebasing: $0[range(at: position)]), as: UTF8.self)
    }
  }

  public mutating func replaceSubrange<C: Collection>(_ positions: Range<Int>, with uids: C)
  where C.Element == String {
    precondition(positions.lowerBound >= 0 && positions.upperBound <= count, "index out of range")
    if positions.isEmpty, positions.lowerBound == count {
      for uid in uids { append(uid) }
      return
    }
    let start = positions.lowerBound == 0 ? 0 : Int(ends[positions.lowerBound - 1])
    let end = positions.isEmpty ? start : Int(ends[positions.upperBound - 1])
    var inserted: [UInt8] = []
    var insertedEnds: [UInt32] = []
    for uid in uids {
      inserted.append(contentsOf: uid.utf8)
      insertedEnds.append(UInt32(start + inserted.count))
    }
    let shift = Int64(inserted.count) - Int64(end - start)
    trimStorage()
    storage.replaceSubrange(start..<end, with: inserted)
    for index in positions.upperBound..<ends.count {
      ends[index] = UInt32(Int64(ends[index]) + shift)
    }
    ends.replaceSubrange(positions, with: insertedEnds)
  }

  public mutating func reserveCapacity(_ count: Int) {
    ends.reserveCapacity(count)
    storage.reserveCapacity(count * 20)
  }
}

extension UIDList: ExpressibleByArrayLiteral {
  public init(arrayLiteral uids: String...) {
    self.init(uids)
  }
}

extension UIDList: CustomStringConvertible, CustomDebugStringConvertible {
  /// As an array of strings prints.
  public var description: String { Array(self).description }
  public var debugDescription: String { Array(self).debugDescription }
}

extension UIDList {
  /// Whether the list holds `uids`, in that order.
  public static func == (lhs: UIDList, rhs: [String]) -> Bool {
    lhs.elementsEqual(rhs)
  }

  /// Whether `lhs`, a list of strings, is `rhs`'s UIDs in order.
  public static func == (lhs: [String], rhs: UIDList) -> Bool {
    rhs.elementsEqual(lhs)
  }
}
