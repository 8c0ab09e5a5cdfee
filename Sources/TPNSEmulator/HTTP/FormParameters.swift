import TPNSProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Form parameters (`application/x-www-form-urlencoded`), decoded, in the order sent.
///
/// Decoding is strict: `%` must be followed by two hex digits, names and values must
/// be UTF-8 after decoding, a name without `=` is refused, and so are more than
/// ``maximumCount`` pairs. `+` is a space. Empty segments (`a=1&&b=2`, a trailing `&`)
/// are skipped, as browsers do.
///
/// ```swift
/// let form = try FormParameters(decoding: Array("cmd=client&os=ios".utf8))
/// form["cmd"]  // "client"
/// ```
struct FormParameters: Sendable, Equatable {
  /// One `name=value` pair.
  struct Pair: Sendable, Equatable {
    var name: String
    var value: String
  }

  /// Most pairs a form may hold. No command takes more than ten parameters; without a
  /// bound, a 1 MiB body of `a=1&b=1&…` (100,000 pairs) held the serving thread for a
  /// quarter of a second per request decoding names it then refused one by one.
  static let maximumCount = 100

  /// Every pair in order, duplicates included.
  private(set) var pairs: [Pair] = []

  init() {}

  /// Decodes `bytes` (a query string or a form body).
  init(decoding bytes: some Collection<UInt8>) throws(RequestError) {
    try append(decoding: bytes)
  }

  /// The first value of `name`.
  subscript(name: String) -> String? {
    pairs.first { $0.name == name }?.value
  }

  /// The first name given more than once, if any.
  var firstDuplicateName: String? {
    // A request has a handful of parameters: comparing pairs beats hashing them. A
    // body may hold thousands, though, so past a few a set keeps this linear.
    if pairs.count <= 16 {
      for index in pairs.indices.dropFirst() {
        let name = pairs[index].name
        for earlier in pairs[..<index] where earlier.name == name {
          return name
        }
      }
      return nil
    }
    var seen: Set<String> = []
    for pair in pairs where !seen.insert(pair.name).inserted {
      return pair.name
    }
    return nil
  }

  /// Decodes `bytes` and appends its pairs.
  mutating func append(decoding bytes: some Collection<UInt8>) throws(RequestError) {
    let contiguous = Array(bytes)
    try contiguous.withUnsafeBufferPointer { buffer throws(RequestError) in
      guard let base = buffer.baseAddress else { return }
      // Room for every pair at once: growing the array one doubling at a time cost
      // three allocations for a usual request's seven pairs. The separators are
      // found by memchr, here and below.
      var separators = 0
      var offset = Self.next(UInt8(ascii: "&"), in: base, from: 0, count: buffer.count)
      while offset < buffer.count, separators < Self.maximumCount {
        separators += 1
        offset = Self.next(UInt8(ascii: "&"), in: base, from: offset + 1, count: buffer.count)
      }
      pairs.reserveCapacity(pairs.count + min(separators + 1, Self.maximumCount))
      var start = 0
      while start < buffer.count {
        let end = Self.next(UInt8(ascii: "&"), in: base, from: start, count: buffer.count)
        if end > start {
          guard pairs.count < Self.maximumCount else {
            throw .badRequest("more than \(Self.maximumCount) parameters")
          }
          try appendPair(buffer[start..<end])
        }
        start = end + 1
      }
    }
  }

  /// Decodes one `name=value` segment.
  private mutating func appendPair(_ segment: Slice<UnsafeBufferPointer<UInt8>>)
    throws(RequestError)
  {
    let bytes = UnsafeBufferPointer(rebasing: segment)
    let found = memchr(bytes.baseAddress!, Int32(UInt8(ascii: "=")), bytes.count)
    guard let found else {
      let name = (try? Self.decodeComponent(segment, what: { "" })) ?? ""
      throw .badRequest("parameter '\(Printable(name))' has no '=' and no value")
    }
    let equals =
      segment.startIndex + (UnsafeRawPointer(found) - UnsafeRawPointer(bytes.baseAddress!))
    let name = try Self.decodeComponent(segment[..<equals], what: { "a parameter name" })
    guard !name.isEmpty else {
      throw .badRequest("a parameter has an empty name")
    }
    let value = try Self.decodeComponent(
      segment[(equals + 1)...], what: { "parameter '\(Printable(name))'" })
    pairs.append(Pair(name: name, value: value))
  }

  /// The offset of the first `byte` at or after `start` in `base[0..<count]`;
  /// `count` if there is none.
  private static func next(
    _ byte: UInt8, in base: UnsafePointer<UInt8>, from start: Int, count: Int
  ) -> Int {
    guard let found = memchr(base + start, Int32(byte), count - start) else { return count }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }

  /// Percent-decodes one name or value; `what` names it in errors.
  ///
  /// Works on a raw buffer with integer offsets: generic `Slice` indexing is not
  /// specialised in a debug build, where it made a 300 KB `map` cost 80 ms to decode.
  private static func decodeComponent(
    _ slice: Slice<UnsafeBufferPointer<UInt8>>, what: () -> String
  ) throws(RequestError) -> String {
    let bytes = UnsafeBufferPointer(rebasing: slice)
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
    let count = bytes.count
    // Fast path: plain ASCII needs neither decoding nor UTF-8 validation.
    if isPlainASCII(base, count: count) {
      return String(decoding: bytes, as: UTF8.self)
    }
    var decoded = [UInt8](repeating: 0, count: count)
    let length = try decoded.withUnsafeMutableBufferPointer {
      output throws(RequestError) -> Int in
      guard let target = output.baseAddress else { return 0 }
      var written = 0
      var index = 0
      // Where the next escape and the next '+' are, each found again by
      // memchr only once passed: the runs between them are copied at once (a
      // 400 KB `map` has an escape every 30 bytes or so, and no '+').
      var nextPercent = -1
      var nextPlus = -1
      while index < count {
        if nextPercent < index {
          nextPercent = Self.next(UInt8(ascii: "%"), in: base, from: index, count: count)
        }
        if nextPlus < index {
          nextPlus = Self.next(UInt8(ascii: "+"), in: base, from: index, count: count)
        }
        let end = min(nextPercent, nextPlus)
        if end > index {
          (target + written).update(from: base + index, count: end - index)
          written += end - index
          index = end
          continue
        }
        let byte = base[index]
        if byte == UInt8(ascii: "+") {
          target[written] = UInt8(ascii: " ")
        } else if byte == UInt8(ascii: "%") {
          guard index + 2 < count, let high = hexValue(base[index + 1]),
            let low = hexValue(base[index + 2])
          else {
            let escape = String(
              decoding: UnsafeBufferPointer(start: base + index, count: min(3, count - index)),
              as: UTF8.self)
            throw .badRequest("\(what()) has a bad percent-escape '\(Printable(escape))'")
          }
          target[written] = high << 4 | low
          index += 2
        } else {
          target[written] = byte
        }
        written += 1
        index += 1
      }
      return written
    }
    decoded.removeLast(count - length)
    guard let text = String(validating: decoded, as: UTF8.self) else {
      throw .badRequest("\(what()) is not valid UTF-8")
    }
    return text
  }

  /// Whether the `count` bytes at `base` are ASCII without `%` nor `+`, tested 8 at
  /// a time.
  private static func isPlainASCII(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
    let highs = WordBytes.highs
    func contains(_ word: UInt64, _ byte: UInt8) -> Bool { WordBytes.matches(word, byte) != 0 }
    var offset = 0
    while offset + 8 <= count {
      let word = UInt64(
        littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
      if word & highs != 0 || contains(word, UInt8(ascii: "%")) || contains(word, UInt8(ascii: "+"))
      {
        return false
      }
      offset += 8
    }
    while offset < count {
      let byte = base[offset]
      if byte >= 0x80 || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+") { return false }
      offset += 1
    }
    return true
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
