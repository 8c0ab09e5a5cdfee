import Glibc
import Testing

@testable import TPNSKit

@Suite struct WallClockTests {
  /// `gettimeofday`'s reading, in seconds since 1970 with its microseconds.
  static func timeOfDay() -> Double {
    var value = timeval()
    gettimeofday(&value, nil)
    return Double(value.tv_sec) + Double(value.tv_usec) / 1_000_000
  }

  @Test("the wall clock reads the seconds since 1970 that gettimeofday does, fraction included")
  func agreesWithTimeOfDay() {
    let before = Self.timeOfDay()
    let now = WallClock.secondsSince1970()
    let after = Self.timeOfDay()
    // gettimeofday is to the microsecond: the reading lies between, within that.
    #expect(now >= before - 0.000_001 && now <= after + 0.000_001)
    #expect(now > 1_700_000_000)
  }
}
