import TPNSProtocol

/// The syntax the emulator accepts for each `/tpns` parameter, as one table.
///
/// Strict on purpose: the emulator exists to catch wire-format bugs, so what a real
/// client never sends is refused with a reason rather than stored.
enum ParameterRules {
  /// Why `value` is not acceptable for `parameter` (for `os`, the request's), or nil.
  /// `token` is checked against `os` by the `client` command, which knows both.
  static func violation(of parameter: CommandParameter, value: String) -> String? {
    // Matched by name: `CommandParameter`'s equality also compares `isRequired`.
    switch CommandParameter(parameter.name) {
    case .os:
      return OperatingSystem(rawValue: value) == nil
        ? "must be 'ios' or 'android', not '\(Printable(value))'" : nil
    case .appid:
      return PhoneFieldSyntax.appIDViolation(in: value).map(String.init(describing:))
    case .udid:
      return PhoneFieldSyntax.udidViolation(in: value).map(String.init(describing:))
    case .token:
      return nil
    case .lang:
      return PhoneFieldSyntax.languageViolation(in: value).map(String.init(describing:))
    case .dev, .bgfetch:
      return value == "0" || value == "1" ? nil : "must be 0 or 1, not '\(Printable(value))'"
    case .uid:
      return DeviceUIDSyntax.violation(in: value).map {
        "must be 20 characters of A-Z and 0-9: '\(Printable(value))' \($0)"
      }
    case .interval:
      return integerViolation(value, in: 0...Int64(Int32.max))
    case .eventType:
      return integerViolation(value, in: Int64(Int32.min)...Int64(Int32.max))
    case .eventTime:
      // Up to the end of year 9999, as seconds since 1970.
      return integerViolation(value, in: 0...253_402_300_799)
    case .format:
      return textViolation(value, maximum: 255, allowsNewlines: false)
    case .msg:
      return EventMessageSyntax.violation(in: value).map(String.init(describing:))
    default:
      return nil
    }
  }

  /// The value as an integer, once ``violation(of:value:)`` has accepted it.
  static func integer(_ value: String) -> Int64 { Int64(value) ?? 0 }

  /// A decimal integer (an optional `-`, then digits only) within `range`.
  private static func integerViolation(_ value: String, in range: ClosedRange<Int64>) -> String? {
    let digits = value.hasPrefix("-") ? value.dropFirst() : Substring(value)
    guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let number = Int64(value), range.contains(number)
    else {
      return "must be an integer from \(range.lowerBound) to \(range.upperBound), "
        + "not '\(Printable(value))'"
    }
    return nil
  }

  /// Free text of at most `maximum` characters, without control characters.
  private static func textViolation(_ value: String, maximum: Int, allowsNewlines: Bool)
    -> String?
  {
    SyntaxViolation.first(in: value, length: 1...maximum) { scalar in
      let isControl = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
      return !isControl || (allowsNewlines && (scalar == "\n" || scalar == "\t"))
    }.map(String.init(describing:))
  }
}
