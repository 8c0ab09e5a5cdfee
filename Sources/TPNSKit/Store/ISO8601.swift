import FoundationEssentials
import TPNSProtocol

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
    CivilDate.iso8601(seconds: Int(date.timeIntervalSince1970.rounded(.down)))
  }
}
