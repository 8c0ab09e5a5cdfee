#if canImport(Glibc)
  import Glibc
#endif

/// Registrations answered and not yet written, oldest first, packed: their texts in
/// one growing buffer and their numbers in one array, so that thousands of them
/// cost two allocations, freed together once written (as `ClientRecord`s they cost
/// three strings each, which kept the serving threads' heaps from being reused).
struct WaitingRegistrations {
  /// The texts of a registration, in the order they are stored.
  private enum Field: Int {
    case os, appid, udid, token, lang, extra, tokenKey
  }

  /// One registration: the lengths of its texts (by ``Field``), stored one after
  /// another from `start` (-1 for a nil), and its numbers.
  private struct Entry {
    var start: Int
    var lengths: SIMD8<Int32>
    var dev: Int64?
    var bgfetch: Int64?
    var lastSeen: Int64
    var isNew: Bool
  }

  private var bytes: [UInt8] = []
  private var entries: [Entry] = []

  var count: Int { entries.count }
  var isEmpty: Bool { entries.isEmpty }

  /// Appends a registration of `record` (its `registeredAt` is its `lastSeen`).
  mutating func append(_ record: ClientRecord, tokenKey: String, isNew: Bool) {
    var entry = Self.entry(record, tokenKey: tokenKey, isNew: isNew, start: bytes.count)
    Self.forEachText(of: record, tokenKey: tokenKey) { field, text in
      let before = bytes.count
      bytes += text.utf8
      entry.lengths[field.rawValue] = Int32(bytes.count - before)
    }
    entries.append(entry)
  }

  /// Replaces the values of registration `index` with `record`'s (as new or not
  /// as before): its texts in place when each is as long as before (a phone
  /// refreshing its registration sends the same), else appended, the old ones
  /// left in the buffer until it is emptied.
  mutating func replace(_ index: Int, with record: ClientRecord, tokenKey: String) {
    let old = entries[index]
    var entry = Self.entry(record, tokenKey: tokenKey, isNew: old.isNew, start: old.start)
    Self.forEachText(of: record, tokenKey: tokenKey) { field, text in
      entry.lengths[field.rawValue] = Int32(text.utf8.count)
    }
    guard entry.lengths == old.lengths else {
      append(record, tokenKey: tokenKey, isNew: old.isNew)
      entries[index] = entries.removeLast()
      return
    }
    // Each text copied at once into the buffer (a subscript assignment a
    // byte checked the bounds and the buffer's uniqueness each time).
    bytes.withUnsafeMutableBufferPointer { buffer in
      var offset = old.start
      Self.forEachText(of: record, tokenKey: tokenKey) { _, text in
        offset += Self.copy(text, to: buffer.baseAddress! + offset)
      }
    }
    entries[index] = entry
  }

  /// Whether registration `index` was answered as a new phone.
  func isNew(_ index: Int) -> Bool { entries[index].isNew }

  /// Whether registration `index` is of the phone (appid, udid) with `tokenKey`.
  func matches(_ index: Int, appid: String, udid: String, tokenKey: String) -> Bool {
    let entry = entries[index]
    return Self.equal(text(entry, .appid), appid) && Self.equal(text(entry, .udid), udid)
      && Self.equal(text(entry, .tokenKey), tokenKey)
  }

  /// Whether `stored` holds `text`'s bytes, by `memcmp` (`elementsEqual` of a
  /// slice and a UTF-8 view compared them one by one through iterators).
  private static func equal(_ stored: ArraySlice<UInt8>?, _ text: String) -> Bool {
    guard let stored, stored.count == text.utf8.count else { return false }
    let equal = stored.withUnsafeBytes { stored in
      text.utf8.withContiguousStorageIfAvailable { text in
        text.isEmpty || memcmp(stored.baseAddress!, text.baseAddress!, text.count) == 0
      }
    }
    return equal ?? stored.elementsEqual(text.utf8)
  }

  /// Copies `text`'s UTF-8 to `destination`; returns its count.
  private static func copy(_ text: String, to destination: UnsafeMutablePointer<UInt8>) -> Int {
    let count = text.utf8.withContiguousStorageIfAvailable { text in
      if !text.isEmpty { destination.update(from: text.baseAddress!, count: text.count) }
      return text.count
    }
    if let count { return count }
    var offset = 0
    for byte in text.utf8 {
      destination[offset] = byte
      offset += 1
    }
    return offset
  }

  /// Registration `index`: its record and token key.
  subscript(index: Int) -> (record: ClientRecord, tokenKey: String, isNew: Bool) {
    let entry = entries[index]
    func string(_ field: Field) -> String? {
      text(entry, field).map { String(decoding: $0, as: UTF8.self) }
    }
    let record = ClientRecord(
      os: string(.os) ?? "", appid: string(.appid) ?? "", udid: string(.udid) ?? "",
      token: string(.token), lang: string(.lang), dev: entry.dev, bgfetch: entry.bgfetch,
      extra: string(.extra), registeredAt: entry.lastSeen, lastSeen: entry.lastSeen)
    return (record, string(.tokenKey) ?? "", entry.isNew)
  }

  /// The bytes of text `field` of `entry`; nil when it is nil.
  private func text(_ entry: Entry, _ field: Field) -> ArraySlice<UInt8>? {
    guard entry.lengths[field.rawValue] >= 0 else { return nil }
    var start = entry.start
    for earlier in 0..<field.rawValue { start += Int(max(0, entry.lengths[earlier])) }
    return bytes[start..<start + Int(entry.lengths[field.rawValue])]
  }

  /// The entry of `record` at `start`, its lengths all -1 (nil) until set.
  private static func entry(_ record: ClientRecord, tokenKey: String, isNew: Bool, start: Int)
    -> Entry
  {
    Entry(
      start: start, lengths: SIMD8(repeating: -1), dev: record.dev, bgfetch: record.bgfetch,
      lastSeen: record.lastSeen, isNew: isNew)
  }

  /// Calls `body` with each text of `record` that is not nil, in ``Field`` order.
  private static func forEachText(
    of record: ClientRecord, tokenKey: String, _ body: (Field, String) -> Void
  ) {
    body(.os, record.os)
    body(.appid, record.appid)
    body(.udid, record.udid)
    if let token = record.token { body(.token, token) }
    if let lang = record.lang { body(.lang, lang) }
    if let extra = record.extra { body(.extra, extra) }
    body(.tokenKey, tokenKey)
  }
}
