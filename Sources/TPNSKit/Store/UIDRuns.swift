/// Reads an acknowledged list in the form earlier versions of tpns wrote it:
/// `UIDRuns`, items against the store's own `UIDs`, each a run (`{From:
/// index, Count: n}`) or one UID written out, with `UIDsDigest` beside `UIDs`
/// naming the list the runs were written against. The next change writes
/// the list out (`UIDs`) and drops both keys.
///
///     UIDRuns.expand([{From: 0, Count: 2}, "X…"], against: ["A…", "B…", "C…"])
///     // ["A…", "B…", "X…"]
enum UIDRuns {
  enum Key {
    static let from = "From"
    static let count = "Count"
  }

  /// The list the runs in `value` (stored at `key`) stand for, with
  /// `stored` the store's list. Not validated: the caller checks it.
  static func expand(
    _ value: PropertyListValue, key: String, against stored: [String]
  ) throws(StoreFormatError) -> [String] {
    guard case .array(let values) = value else {
      throw .wrongType(key: key, expected: "array", found: value)
    }
    var uids: [String] = []
    for (index, value) in values.enumerated() {
      let itemKey = "\(key) › \(index)"
      switch value {
      case .string(let uid): uids.append(uid)
      case .dictionary(let run):
        guard case .integer(let from)? = run[Key.from], case .integer(let count)? = run[Key.count],
          run.count == 2
        else {
          throw .invalidValue(
            key: itemKey,
            reason: "a run is {\(Key.from): integer, \(Key.count): integer} and nothing else")
        }
        guard from >= 0, count >= 1, from <= stored.count - count else {
          throw .invalidValue(
            key: itemKey,
            reason: "\(Key.from) \(from), \(Key.count) \(count) is not a run of the "
              + "\(stored.count) stored UIDs (\(Key.from) from 0, \(Key.count) at least 1)")
        }
        uids += stored[from..<from + count]
      default:
        throw .wrongType(key: itemKey, expected: "string or dictionary", found: value)
      }
    }
    return uids
  }

  /// The `UIDsDigest` earlier versions wrote of `uids`: a 64-bit hash, in
  /// 16 hex digits, of each UID's bytes taken 8 at a time (little-endian)
  /// and its length. Runs are read only against the list they were written for.
  static func digest(of uids: [String]) -> String {
    func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
      let product = (hash ^ word) &* 0x9e37_79b9_7f4a_7c15
      return product ^ (product >> 29)
    }
    var hash: UInt64 = 0x243f_6a88_85a3_08d3 ^ UInt64(truncatingIfNeeded: uids.count)
    for uid in uids {
      let bytes = Array(uid.utf8)
      var word: UInt64 = 0
      for (index, byte) in bytes.enumerated() {
        word |= UInt64(byte) << (8 * UInt64(index % 8))
        if index % 8 == 7 {
          hash = mix(hash, word)
          word = 0
        }
      }
      // The bytes after the last full word (none: a word of 0).
      hash = mix(mix(hash, word), UInt64(bytes.count))
    }
    hash ^= hash >> 32
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
