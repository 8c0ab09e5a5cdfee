#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Wall-clock time in milliseconds since 1970, and its ISO 8601 form.
///
/// A tiny helper instead of `Date.formatted`, which would load ICU.
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
}
