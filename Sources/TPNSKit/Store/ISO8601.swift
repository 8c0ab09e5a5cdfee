import FoundationEssentials

/// The `<date>` format of property lists, `2020-01-01T00:00:00Z`, without a
/// date formatter (and ICU).
public enum ISO8601 {
  /// The date, or `nil` if `text` is not `YYYY-MM-DDTHH:MM:SSZ`.
  static func parse(_ text: String) -> Date? {
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
    let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
    return Date(timeIntervalSince1970: Double(((days * 24 + hour) * 60 + minute) * 60 + second))
  }

  /// `date` as `YYYY-MM-DDTHH:MM:SSZ` (whole seconds, UTC).
  public static func format(_ date: Date) -> String {
    let total = Int(date.timeIntervalSince1970.rounded(.down))
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let seconds = total - days * 86_400
    let (year, month, day) = CivilDate.fromDaysSinceEpoch(days)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
    return "\(yearText)-\(two(month))-\(two(day))T\(two(seconds / 3600)):"
      + "\(two(seconds / 60 % 60)):\(two(seconds % 60))Z"
  }
}

/// Days since 1970-01-01 to and from a civil date (Howard Hinnant's algorithms).
enum CivilDate {
  static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func fromDaysSinceEpoch(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
