import TPNSProtocol

/// The syntax the emulator accepts for each `/tpns` parameter, as one table.
///
/// Each value is judged twice over: is it what a canonical client sends (the
/// syntax of TPNSProtocol), and if not, is it still usable, as the real service
/// takes it? A usable value is accepted with a warning (refused in strict mode, see
/// ``Conformance``); an unusable one is refused in every mode.
enum ParameterRules {
  /// What the emulator makes of one value: what a canonical client sends; not that but
  /// usable (kept as sent, the reason a warning); not usable but harmless, an optional
  /// setting (taken as not sent, the reason a warning); or not usable (400 in every mode).
  enum Judgement: Equatable {
    case canonical
    case tolerated(String)
    case ignored(String)
    case refused(String)
  }

  /// The judgement of `value` for `parameter`; the reasons follow `parameter 'name' `.
  /// `token` is judged against `os` by ``judge(token:os:)``, and a `uid` in a `map`
  /// by ``judge(uid:)``.
  static func judge(_ parameter: CommandParameter, value: String) -> Judgement {
    switch parameter.name {
    case "os":  // the values the vendor documents are canonical, other plain text tolerated
      guard OperatingSystem(rawValue: value) == nil else { return .canonical }
      if let violation = plainTextViolation(value) { return .refused("\(violation)") }
      return .tolerated(
        "must be one the vendor documents (\(OperatingSystem.documentedValues)), "
          + "not '\(Printable(value))'")
    case "appid":
      return judgeText(value, canonical: PhoneFieldSyntax.appIDViolation(in: value))
    case "udid":
      return judgeText(value, canonical: PhoneFieldSyntax.udidViolation(in: value))
    case "lang":
      return judgeText(value, canonical: PhoneFieldSyntax.languageViolation(in: value))
    case "dev", "bgfetch":
      guard value != "0" && value != "1" else { return .canonical }
      let reason = "must be 0 or 1, not '\(Printable(value))'"
      return integer(value) == nil ? .ignored(reason) : .tolerated(reason)
    case "uid":
      let rule = "must be 20 characters of A-Z and 0-9: '\(Printable(value))' "
      switch judge(uid: value) {
      case .tolerated(let reason): return .tolerated(rule + reason)
      case .refused(let reason): return .refused(rule + reason)
      default: return .canonical
      }
    case "interval":
      return judgeInteger(
        value, in: Int64(MapEntry.intervals.lowerBound)...Int64(MapEntry.intervals.upperBound))
    case "event_type":
      return judgeInteger(value, in: Int64(Int32.min)...Int64(Int32.max), isRequired: true)
    case "event_time":
      // Up to the end of year 9999, as seconds since 1970.
      return judgeInteger(value, in: 0...253_402_300_799)
    case "format":
      return MappingSettingsSyntax.formatViolation(in: value).map { .tolerated("\($0)") }
        ?? .canonical
    case "msg":
      return EventMessageSyntax.violation(in: value).map { .tolerated("\($0)") } ?? .canonical
    default:  // cmd, token (judged against os), map (decoded by its handler)
      return .canonical
    }
  }

  /// The judgement of a device UID: canonical (``DeviceUIDSyntax``), tolerated when
  /// it is 20 ASCII letters and digits (lower case: stored as sent), else refused.
  /// The reason is the ``SyntaxViolation``.
  static func judge(uid text: String) -> Judgement {
    guard let violation = DeviceUIDSyntax.violation(in: text) else { return .canonical }
    let usable = SyntaxViolation.first(in: text, length: 20...20) { scalar in
      ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
    }
    return usable == nil ? .tolerated("\(violation)") : .refused("\(violation)")
  }

  /// The judgement of a push token for `os` (the reasons follow `parameter 'token' `).
  /// Canonical: the syntax tpns sends for a documented `os`, or for another `os` (already
  /// warned about) the characters of every push service's tokens (hex, FCM's, base64).
  /// Tolerated: for `ios`, an even number of hex characters, up to 4096 (APNs tokens may
  /// grow); for another documented `os`, those characters. Anything else is refused.
  static func judge(token: String, os: String) -> Judgement {
    switch OperatingSystem(rawValue: os) {
    case .ios:
      guard let violation = OperatingSystem.ios.tokenViolation(token) else { return .canonical }
      let reason = "\(violation) (an iOS token must be 64 hex characters)"
      let isHex =
        SyntaxViolation.first(in: token, length: 2...4096) { scalar in
          ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar)
            || ("A"..."F").contains(scalar)
        } == nil
      return isHex && token.utf8.count.isMultiple(of: 2) ? .tolerated(reason) : .refused(reason)
    case let other?:
      guard let violation = other.tokenViolation(token) else { return .canonical }
      let name = other == .android ? "an Android token" : "a token of os '\(other.rawValue)'"
      let reason =
        "\(violation) (\(name) must be 1 to 4096 characters of A-Z, a-z, 0-9, _ : . -)"
      return anyTokenViolation(token) == nil ? .tolerated(reason) : .refused(reason)
    case nil:
      return anyTokenViolation(token).map {
        .refused("\($0) (a token must be 1 to 4096 characters of A-Z, a-z, 0-9, _ : . + / = -)")
      } ?? .canonical
    }
  }

  /// What keeps `text` from being any push service's token, or nil.
  private static func anyTokenViolation(_ text: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: text, length: 1...4096) { scalar in
      ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
        || "_:.+/=-".unicodeScalars.contains(scalar)
    }
  }

  /// An optional `-`, then digits only, as an integer.
  static func integer(_ value: String) -> Int64? {
    let digits = value.hasPrefix("-") ? value.utf8.dropFirst() : value.utf8[...]
    guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int64(value)
  }

  /// Free text (`appid`, `udid`, `lang`): canonical when `canonical` is nil,
  /// tolerated when it is plain text, else refused.
  private static func judgeText(_ value: String, canonical: SyntaxViolation?) -> Judgement {
    guard let canonical else { return .canonical }
    if let violation = plainTextViolation(value) { return .refused("\(violation)") }
    if case .character(" ", _) = canonical {
      return .tolerated("\(canonical) (a '+' sent unencoded arrives as a space)")
    }
    return .tolerated("\(canonical)")
  }

  /// What any identifier must be: no control character.
  private static func plainTextViolation(_ value: String) -> SyntaxViolation? {
    SyntaxViolation.first(in: value, length: 1...4096) {
      $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value)
    }
  }

  /// A decimal integer (an optional `-`, then digits only) within `range`: canonical;
  /// another integer: tolerated; anything else: ignored, or refused when `isRequired`.
  private static func judgeInteger(
    _ value: String, in range: ClosedRange<Int64>, isRequired: Bool = false
  ) -> Judgement {
    let number = integer(value)
    if let number, range.contains(number) { return .canonical }
    let reason =
      "must be an integer from \(range.lowerBound) to \(range.upperBound), "
      + "not '\(Printable(value))'"
    if number != nil { return .tolerated(reason) }
    return isRequired ? .refused(reason) : .ignored(reason)
  }
}
