import Glibc

/// The system's wall clock (`CLOCK_REALTIME`): what `Retry-After` dates and
/// time stamps are read against.
public enum WallClock {
  /// Seconds since 1970-01-01 00:00:00 UTC, with their fraction.
  public static func secondsSince1970() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
  }
}
