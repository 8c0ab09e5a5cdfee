/// Civil dates and times in UTC, in the proleptic Gregorian calendar (as property lists
/// and ISO 8601 count them, before 1582 too), computed without a calendar or a date
/// formatter (Howard Hinnant's algorithms).
public enum CivilDate {
  /// Seconds since 1970 of `year`-`month`-`day` `hour`:`minute`:`second`, UTC.
  public static func seconds(
    year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0
  ) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return ((days * 24 + hour) * 60 + minute) * 60 + second
  }

  /// The seconds since 1970 of `text`, or nil if it is not `YYYY-MM-DDTHH:MM:SSZ`
  /// (a property list's `<date>`: no other form is read).
  public static func seconds(iso8601 text: String) -> Int? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? { Int(String(decoding: bytes[range], as: UTF8.self)) }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
    else { return nil }
    return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  }

  /// `2020-01-01T00:00:00Z` for `seconds` since 1970; with `milliseconds` (0 to 999),
  /// `2020-01-01T00:00:00.123Z`.
  public static func iso8601(seconds: Int, milliseconds: Int? = nil) -> String {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let time = seconds - days * 86_400
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func padded(_ value: Int, _ width: Int) -> String {
      String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
    }
    return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(time / 3600, 2)):"
      + "\(padded(time / 60 % 60, 2)):\(padded(time % 60, 2))"
      + (milliseconds.map { ".\(padded($0, 3))" } ?? "") + "Z"
  }
}
