import Glibc
import TPNSProtocol

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
    var (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    // Before 1970 too, the milliseconds count up from the second before: -1 is .999.
    if fraction < 0 { (seconds, fraction) = (seconds - 1, fraction + 1000) }
    return CivilDate.iso8601(seconds: Int(seconds), milliseconds: Int(fraction))
  }
}
