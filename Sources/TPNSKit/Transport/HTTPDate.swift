import FoundationEssentials

/// Parses the HTTP-date of a `Retry-After` header (RFC 9110 IMF-fixdate,
/// `Sun, 06 Nov 1994 08:49:37 GMT`), without a date formatter (and ICU).
enum HTTPDate {
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// The date, or `nil` if `text` is not an IMF-fixdate.
  static func parse(_ text: String) -> Date? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
      let day = Int(parts[1]), (1...31).contains(day),
      let monthIndex = months.firstIndex(of: String(parts[2])),
      let year = Int(parts[3]), (1970...9999).contains(year)
    else { return nil }
    let time = parts[4].split(separator: ":")
    guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]),
      let second = Int(time[2]), (0..<24).contains(hour), (0..<60).contains(minute),
      (0...60).contains(second)
    else { return nil }
    let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
    let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
    return Date(timeIntervalSince1970: Double(seconds))
  }

  /// Days from 1970-01-01 to a civil date (Howard Hinnant's algorithm).
  private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
