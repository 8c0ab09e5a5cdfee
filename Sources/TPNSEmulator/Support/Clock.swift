import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Wall-clock time in milliseconds since 1970, and its ISO 8601 form.
enum Clock {
  static func nowMilliseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
  }

  static func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// `2026-11-30T07:42:50.123Z` for `milliseconds` since 1970.
  static func iso8601(milliseconds: Int64) -> String {
    let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
    let digits = String(fraction)
    return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
  }
}
