import DurationFormatting
import Testing

@Suite struct DurationTextTests {
  @Test(
    "a duration as a decimal number of a unit: rounded half up, trailing zeros dropped unless kept",
    arguments: [
      (Duration.seconds(2), DurationUnit.seconds, 3, false, "2"),
      (.milliseconds(1_500), .seconds, 3, false, "1.5"),
      (.milliseconds(250), .seconds, 3, false, "0.25"),
      (.milliseconds(1), .seconds, 3, false, "0.001"),
      (.microseconds(1_000_400), .seconds, 3, false, "1"),
      (.microseconds(1_000_500), .seconds, 3, false, "1.001"),
      (.microseconds(999_500), .seconds, 3, false, "1"),
      (.milliseconds(1_250), .seconds, 1, false, "1.3"),
      (.milliseconds(1_249), .seconds, 1, false, "1.2"),
      (.milliseconds(50), .seconds, 1, false, "0.1"),
      (.milliseconds(1_000), .seconds, 1, false, "1"),
      (.zero, .seconds, 1, false, "0"),
      (.milliseconds(3), .milliseconds, 0, false, "3"),
      (.microseconds(3_499), .milliseconds, 0, false, "3"),
      (.microseconds(3_500), .milliseconds, 0, false, "4"),
      (.seconds(1_204), .milliseconds, 0, false, "1204000"),
      (.microseconds(420), .milliseconds, 2, true, "0.42"),
      (.microseconds(1_500), .milliseconds, 2, true, "1.50"),
      (.microseconds(7), .milliseconds, 2, true, "0.01"),
      (.nanoseconds(12_345_000), .milliseconds, 2, true, "12.35"),
      (.milliseconds(3), .milliseconds, 2, true, "3.00"),
      (.milliseconds(-1_500), .seconds, 3, false, "-1.5"),
    ])
  func decimal(
    duration: Duration, unit: DurationUnit, fractionDigits: Int, keepingZeros: Bool,
    expected: String
  ) {
    #expect(
      duration.decimal(in: unit, fractionDigits: fractionDigits, keepingZeros: keepingZeros)
        == expected)
  }

  @Test(
    "text is the number and the unit's symbol",
    arguments: [
      (Duration.milliseconds(2_500), DurationUnit.seconds, 3, "2.5 s"),
      (.seconds(30), .seconds, 3, "30 s"),
      (.milliseconds(1_240), .seconds, 1, "1.2 s"),
      (.milliseconds(3), .milliseconds, 0, "3 ms"),
      (.microseconds(1_204_400), .milliseconds, 0, "1204 ms"),
    ])
  func text(duration: Duration, unit: DurationUnit, fractionDigits: Int, expected: String) {
    #expect(duration.text(in: unit, fractionDigits: fractionDigits) == expected)
  }

  @Test(
    "a wait as a person would say it: whole hours and minutes by name, else seconds",
    arguments: [
      (Duration.seconds(3_600), "an hour"),
      (.seconds(7_200), "2 hours"),
      (.seconds(120), "2 min"),
      (.seconds(3_660), "61 min"),
      (.seconds(90), "90 s"),
      (.seconds(60), "60 s"),
      (.milliseconds(1_500), "1.5 s"),
      (.seconds(Int64.max / 2), "4611686018427387903 s"),
    ])
  func spoken(duration: Duration, expected: String) {
    #expect(duration.spoken == expected)
  }

  @Test(
    "whole units, rounded to the nearest",
    arguments: [
      (Duration.milliseconds(1_500), DurationUnit.seconds, Int64(2)),
      (.milliseconds(1_499), .seconds, 1),
      (.seconds(10), .seconds, 10),
      (.zero, .seconds, 0),
      (.microseconds(2_500), .milliseconds, 3),
      (.microseconds(2_499), .milliseconds, 2),
      (.seconds(20), .milliseconds, 20_000),
      (.milliseconds(-1_500), .seconds, -2),
      (.seconds(Int64.max / 2), .milliseconds, Int64.max),
    ])
  func rounded(duration: Duration, unit: DurationUnit, expected: Int64) {
    #expect(duration.rounded(to: unit) == expected)
  }
}
