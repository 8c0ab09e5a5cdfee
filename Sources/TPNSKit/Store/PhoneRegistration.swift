import TPNSProtocol

/// A complete registration: everything `cmd=client` sends for one phone.
///
/// The store holds one as the desired registration, and one per server as
/// what that server acknowledged; the two are compared whole, so a changed
/// `lang` or `dev` is registered again like a changed token. A store without
/// `Lang` or `Dev` reads as the service's defaults, as they were registered.
public struct PhoneRegistration: Hashable, Sendable {
  /// The service's language when a client sends none (`lang=enUS`).
  public static let defaultLanguage = "enUS"

  /// The push token.
  public var token: PushToken
  /// Who the phone is at the server (`os`, `appid`, `udid`).
  public var phone: Phone
  /// The phone's language (`lang`); ``defaultLanguage`` unless given.
  public var language: String
  /// APNs sandbox (`dev=1`); production (`dev=0`) unless given.
  public var sandbox: Bool

  /// A registration of `token` for `phone`.
  public init(
    token: PushToken, phone: Phone, language: String = Self.defaultLanguage,
    sandbox: Bool = false
  ) {
    self.token = token
    self.phone = phone
    self.language = language
    self.sandbox = sandbox
  }

  /// The `client` request that registers it, `lang` and `dev` always sent.
  public var clientRequest: TPNSRequest {
    .client(phone, token: token, language: language, sandbox: sandbox)
  }
}

extension PhoneRegistration {
  /// The property-list keys of a registration, the quickstart's names.
  enum Key {
    static let token = "Token"
    static let os = "OS"
    static let appID = "AppID"
    static let udid = "UDID"
    static let language = "Lang"
    static let sandbox = "Dev"
    static let all: Set<String> = [token, os, appID, udid, language, sandbox]
  }

  /// The registration in `list` (a dictionary's entries), `nil` if it holds
  /// no `Token`. `context` prefixes the key in errors (`Servers › … › `).
  static func read(
    _ list: [String: PropertyListValue], context: String = ""
  ) throws(StoreFormatError) -> PhoneRegistration? {
    guard let text = try list.string(Key.token, context: context) else { return nil }
    let os = try Phone.readOS(list, context: context)
    let token: PushToken
    do {
      token = try PushToken(text, os: os)
    } catch {
      throw .invalidValue(key: context + Key.token, reason: error.description)
    }
    // An iOS phone's ID is its token; any other phone must have its own.
    let phone = try Phone.read(
      list, context: context, defaultUDID: os.usesAPNsTokens ? token.rawValue : nil)
    let language = try list.string(Key.language, context: context) ?? defaultLanguage
    if let violation = PhoneFieldSyntax.languageViolation(in: language) {
      throw .invalidValue(key: context + Key.language, reason: "\(violation)")
    }
    let sandbox = try list.bool(Key.sandbox, context: context) ?? false
    return PhoneRegistration(token: token, phone: phone, language: language, sandbox: sandbox)
  }

  /// The entries that store this registration (`Lang` and `Dev` always).
  var propertyList: [String: PropertyListValue] {
    var list = phone.propertyList
    list[Key.token] = .string(token.rawValue)
    list[Key.language] = .string(language)
    list[Key.sandbox] = .bool(sandbox)
    return list
  }
}

extension Phone {
  /// The phone in `list`'s `OS`, `AppID` and `UDID` (`defaultUDID` if absent).
  static func read(
    _ list: [String: PropertyListValue], context: String, defaultUDID: String? = nil
  ) throws(StoreFormatError) -> Phone {
    typealias Key = PhoneRegistration.Key
    let os = try readOS(list, context: context)
    let appID = try list.string(Key.appID, context: context) ?? Phone.defaultAppID
    if let violation = PhoneFieldSyntax.appIDViolation(in: appID) {
      throw .invalidValue(key: context + Key.appID, reason: "\(violation)")
    }
    guard let udid = try list.string(Key.udid, context: context) ?? defaultUDID else {
      throw .invalidValue(
        key: context + Key.udid,
        reason: "a phone of os '\(os.rawValue)' needs one (only iOS "
          + "phones use their token)")
    }
    if let violation = PhoneFieldSyntax.udidViolation(in: udid) {
      throw .invalidValue(key: context + Key.udid, reason: "\(violation)")
    }
    return Phone(os: os, appID: appID, udid: udid)
  }

  /// The `OS` in `list` (`ios` if absent): one of the documented values.
  static func readOS(
    _ list: [String: PropertyListValue], context: String
  ) throws(StoreFormatError) -> OperatingSystem {
    let key = PhoneRegistration.Key.os
    let text = try list.string(key, context: context) ?? OperatingSystem.ios.rawValue
    guard let os = OperatingSystem(rawValue: text) else {
      throw .invalidValue(
        key: context + key,
        reason: "'\(text)' is not one of \(OperatingSystem.documentedValues)")
    }
    return os
  }

  var propertyList: [String: PropertyListValue] {
    typealias Key = PhoneRegistration.Key
    return [Key.os: .string(os.rawValue), Key.appID: .string(appID), Key.udid: .string(udid)]
  }
}

/// The value at `key` of a given type: `nil` if absent; another type fails,
/// naming `context + key`.
extension Dictionary where Key == String, Value == PropertyListValue {
  func string(_ key: String, context: String = "") throws(StoreFormatError) -> String? {
    switch self[key] {
    case nil: return nil
    case .string(let text): return text
    case let other?: throw .wrongType(key: context + key, expected: "string", found: other)
    }
  }

  func bool(_ key: String, context: String = "") throws(StoreFormatError) -> Bool? {
    switch self[key] {
    case nil: return nil
    case .bool(let value): return value
    case let other?: throw .wrongType(key: context + key, expected: "boolean", found: other)
    }
  }

  func dictionary(
    _ key: String, context: String = ""
  ) throws(StoreFormatError) -> [String: PropertyListValue]? {
    switch self[key] {
    case nil: return nil
    case .dictionary(let value): return value
    case let other?: throw .wrongType(key: context + key, expected: "dictionary", found: other)
    }
  }

  /// Whether `key` holds `strings` byte for byte, compared where they lie rather
  /// than copied out. `strings` must be ASCII: `==` alone takes a Kelvin sign
  /// (U+212A) for a `K`, and a string equal to an ASCII one with as many bytes is it.
  func holds(_ key: String, strings: [String]) -> Bool {
    guard case .array(let items)? = self[key], items.count == strings.count else { return false }
    for index in items.indices {
      guard case .string(let text) = items[index],
        text.utf8.count == strings[index].utf8.count, text == strings[index]
      else { return false }
    }
    return true
  }

  func strings(_ key: String, context: String = "") throws(StoreFormatError) -> [String]? {
    switch self[key] {
    case nil: return nil
    case .array(let items):
      return try items.indices.map { (index) throws(StoreFormatError) in
        guard case .string(let text) = items[index] else {
          throw .wrongElementType(key: context + key, index: index, found: items[index])
        }
        return text
      }
    case let other?:
      throw .wrongType(key: context + key, expected: "array of strings", found: other)
    }
  }
}
