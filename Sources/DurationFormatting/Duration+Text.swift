/// The units a ``Swift/Duration`` is shown in (the raw value: attoseconds in one).
public enum DurationUnit: Int64, Sendable {
  case seconds = 1_000_000_000_000_000_000
  case milliseconds = 1_000_000_000_000_000
}

/// Durations as text, the project's one home for it: the client's messages
/// (`no answer within 2.5 s`, `retrying in 1.2 s`, `--verbose`'s `after 3 ms`),
/// its JSON (`delay_ms`), the emulator's log lines (`0.42ms`). Every form
/// rounds to the nearest (half up) from the exact value.
extension Duration {
  /// The duration in whole `unit`s, rounded to the nearest.
  ///
  ///     Duration.milliseconds(1_500).rounded(to: .seconds)  // 2
  public func rounded(to unit: DurationUnit) -> Int64 {
    guard self >= .zero else { return -(.zero - self).rounded(to: unit) }
    return split(in: unit, fractionDigits: 0).whole
  }

  /// The duration as a decimal number of `unit`s with at most
  /// `fractionDigits` decimals (trailing zeros dropped, and the point with
  /// them), or exactly that many if `keepingZeros`.
  ///
  ///     Duration.milliseconds(1_250).decimal(in: .seconds, fractionDigits: 1)  // "1.3"
  ///     Duration.microseconds(420).decimal(in: .milliseconds, fractionDigits: 2, keepingZeros: true)  // "0.42"
  public func decimal(
    in unit: DurationUnit, fractionDigits: Int, keepingZeros: Bool = false
  ) -> String {
    guard self >= .zero else {
      return "-"
        + (.zero - self).decimal(
          in: unit, fractionDigits: fractionDigits, keepingZeros: keepingZeros)
    }
    let (whole, fraction) = split(in: unit, fractionDigits: fractionDigits)
    guard fractionDigits > 0 else { return String(whole) }
    var digits = String(fraction)
    digits = String(repeating: "0", count: fractionDigits - digits.count) + digits
    if !keepingZeros {
      while digits.hasSuffix("0") { digits.removeLast() }
    }
    return digits.isEmpty ? String(whole) : "\(whole).\(digits)"
  }

  /// The number and the unit's symbol, for messages: at most
  /// `fractionDigits` decimals.
  ///
  ///     Duration.milliseconds(2_500).text(in: .seconds)  // "2.5 s"
  ///     Duration.milliseconds(3).text(in: .milliseconds, fractionDigits: 0)  // "3 ms"
  public func text(in unit: DurationUnit, fractionDigits: Int = 3) -> String {
    decimal(in: unit, fractionDigits: fractionDigits) + (unit == .seconds ? " s" : " ms")
  }

  /// A wait as a person would say it: whole hours and minutes by name (a
  /// fraction of a second left out), anything else in seconds
  /// (``text(in:fractionDigits:)``).
  ///
  ///     Duration.seconds(3600).spoken  // "an hour"
  ///     Duration.seconds(120).spoken   // "2 min"
  ///     Duration.seconds(90).spoken    // "90 s"
  public var spoken: String {
    let seconds = components.seconds
    if seconds == 3600 { return "an hour" }
    if seconds > 3600, seconds % 3600 == 0 { return "\(seconds / 3600) hours" }
    if seconds >= 120, seconds % 60 == 0 { return "\(seconds / 60) min" }
    return text(in: .seconds)
  }

  /// The non-negative duration as whole `unit`s and a fraction of
  /// `fractionDigits` digits, rounded half up; `whole` stops at `Int64.max`.
  private func split(
    in unit: DurationUnit, fractionDigits: Int
  ) -> (whole: Int64, fraction: Int64) {
    precondition((0...15).contains(fractionDigits), "0 to 15 fraction digits")
    var scale: Int64 = 1
    for _ in 0..<fractionDigits { scale *= 10 }
    let step = Int128(unit.rawValue / scale)
    let steps = (attoseconds + step / 2) / step
    let whole = steps / Int128(scale)
    guard whole < Int128(Int64.max) else { return (Int64.max, 0) }
    return (Int64(whole), Int64(steps % Int128(scale)))
  }
}
