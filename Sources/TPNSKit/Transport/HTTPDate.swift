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
    let days = CivilDate.daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
    let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
    return Date(timeIntervalSince1970: Double(seconds))
  }
}
