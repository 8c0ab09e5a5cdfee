import Testing

@testable import TPNSEmulator

/// The times the emulator shows (its log, `/_emulator/requests`, the registry): any
/// millisecond count a snapshot may hold, before 1970 and before 1582 too.
@Suite struct ClockTests {
  @Test(
    "milliseconds since 1970 as ISO 8601, rounded down, in the proleptic Gregorian calendar",
    arguments: [
      (Int64(0), "1970-01-01T00:00:00.000Z"), (7, "1970-01-01T00:00:00.007Z"),
      (1_764_000_000_123, "2025-11-24T16:00:00.123Z"), (-1, "1969-12-31T23:59:59.999Z"),
      (-1500, "1969-12-31T23:59:58.500Z"), (-30_610_224_000_000, "1000-01-01T00:00:00.000Z"),
    ])
  func iso8601(milliseconds: Int64, text: String) {
    #expect(Clock.iso8601(milliseconds: milliseconds) == text)
  }

  @Test("the largest and smallest counts a snapshot may hold are shown, not a crash")
  func extremes() {
    #expect(Clock.iso8601(milliseconds: .max).hasSuffix(".807Z"))
    #expect(Clock.iso8601(milliseconds: .min).hasSuffix(".192Z"))
  }
}
