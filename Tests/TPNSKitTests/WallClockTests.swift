import Glibc
import Testing

@testable import TPNSKit

@Suite struct WallClockTests {
  @Test("the wall clock reads the seconds since 1970 that time() does, with a fraction")
  func agreesWithTime() {
    let before = Double(time(nil))
    let now = WallClock.secondsSince1970()
    let after = Double(time(nil))
    #expect(now >= before && now < after + 1)
  }
}
