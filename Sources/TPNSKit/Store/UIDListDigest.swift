/// A fingerprint of the UID list as tpns wrote it (`UIDsDigest`, 16 hex
/// digits), kept beside it in the store.
///
/// Why: a list tpns wrote was checked before it was written (each UID valid
/// and canonical, none twice), and the acknowledged lists of `Servers` are
/// written as runs of it (``UIDRuns``). When the list read has the digest it
/// was written with, it is that list: it is not checked again (for 10,000
/// UIDs, most of reading the store), and the runs name the UIDs they were
/// written for. A list edited by hand (or by an older tpns, which keeps the
/// key as it is) no longer matches: it is checked like any list, and the
/// runs are not trusted.
///
/// A check against edits, not against forgery: whoever can write the store
/// (its owner, mode 0600) can write any list there anyway.
enum UIDListDigest {
  /// The digest of `uids`: a 64-bit hash of each UID's bytes, 8 at a time,
  /// and its length (so that no two lists of different splits collide by
  /// construction).
  static func of(_ uids: UIDList) -> String {
    var hash: UInt64 = 0x243f_6a88_85a3_08d3 ^ UInt64(truncatingIfNeeded: uids.count)
    uids.withBytes { bytes, ends in
      let base = UnsafeRawPointer(bytes.baseAddress)
      var start = 0
      for end in ends {
        let end = Int(end)
        if end - start == 20, let base {
          // A UID: two words and four bytes, the general path's words unrolled.
          let at = base + start
          let tail = UInt64(
            UInt32(littleEndian: at.loadUnaligned(fromByteOffset: 16, as: UInt32.self)))
          hash = mix(hash, UInt64(littleEndian: at.loadUnaligned(as: UInt64.self)))
          hash = mix(
            hash, UInt64(littleEndian: at.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
          hash = mix(mix(hash, tail), 20)
        } else {
          hash = mix(
            hash, UnsafeRawBufferPointer(start: base.map { $0 + start }, count: end - start))
        }
        start = end
      }
    }
    hash ^= hash >> 32
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// The digest of the list of `uids`.
  static func of(_ uids: [String]) -> String {
    of(UIDList(uids))
  }

  /// `hash` with `bytes` mixed in, 8 at a time, then their count.
  private static func mix(_ hash: UInt64, _ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash = hash
    var index = 0
    while index + 8 <= bytes.count {
      hash = mix(hash, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      index += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while index < bytes.count {
      tail |= UInt64(bytes[index]) << shift
      shift += 8
      index += 1
    }
    return mix(mix(hash, tail), UInt64(bytes.count))
  }

  private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
    let product = (hash ^ word) &* 0x9e37_79b9_7f4a_7c15
    return product ^ (product >> 29)
  }
}
