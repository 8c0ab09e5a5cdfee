#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Wall-clock time in milliseconds since 1970, and its ISO 8601 form.
///
/// A tiny helper instead of `Date.formatted`, which would load ICU.
enum Clock {
  /// Milliseconds since 1970-01-01T00:00:00Z.
  static func nowMilliseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
  }

  /// Monotonic nanoseconds, for durations.
  static func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// `2026-11-30T07:42:50.123Z` for `milliseconds` since 1970.
  static func iso8601(milliseconds: Int64) -> String {
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-"
      + pad(parts.tm_mday, 2) + "T" + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":"
      + pad(parts.tm_sec, 2) + "." + pad(Int32(milliseconds % 1000), 3) + "Z"
  }

  /// Milliseconds since 1970 of a time written as ``iso8601(milliseconds:)`` writes it
  /// (`2026-11-30T07:42:50.123Z`); nil for any other text.
  static func milliseconds(iso8601 text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 24, bytes[23] == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return value
    }
    let separators: [(Int, Character)] = [
      (4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "."),
    ]
    guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      let millisecond = number(20..<23), (1...12).contains(month), (1...31).contains(day),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    let seconds = Int64(timegm(&parts))
    let result = seconds * 1000 + millisecond
    // 31 February and its like are not times: they must write back as they read.
    return iso8601(milliseconds: result) == text ? result : nil
  }
}
