/// What one server has acknowledged: the registration it accepted and the
/// list it accepted. Only a request the server answered 2xx moves it.
public struct Acknowledgement: Sendable, Equatable {
  /// The registration the server accepted (`cmd=client`); `nil` if none.
  public var registration: PhoneRegistration?
  /// The list the server accepted (`cmd=mapsync`) for that registration's
  /// phone; `nil` if it never accepted one.
  public var uids: [String]?

  /// An acknowledgement; nothing acknowledged by default.
  public init(registration: PhoneRegistration? = nil, uids: [String]? = nil) {
    self.registration = registration
    self.uids = uids
  }

  /// Whether the server acknowledged nothing at all.
  public var isEmpty: Bool { registration == nil && uids == nil }
}

extension Acknowledgement {
  enum Key {
    static let registration = "Registration"
    static let uids = "UIDs"
  }

  /// The acknowledgement stored at `Servers › <server>`.
  static func read(
    _ value: PropertyListValue, server: String
  ) throws(StoreFormatError) -> Acknowledgement {
    let context = "Servers › \(server) › "
    guard case .dictionary(let list) = value else {
      throw .wrongType(key: "Servers › \(server)", expected: "dictionary", found: value)
    }
    var acknowledgement = Acknowledgement()
    switch list[Key.registration] {
    case nil: break
    case .dictionary(let registration):
      acknowledgement.registration = try PhoneRegistration.read(
        registration, context: context + Key.registration + " › ")
    case let other?:
      throw .wrongType(key: context + Key.registration, expected: "dictionary", found: other)
    }
    if let uids = try list.strings(Key.uids, context: context) {
      acknowledgement.uids = try StoreState.validated(uids, key: context + Key.uids)
    }
    return acknowledgement
  }

  var propertyList: PropertyListValue {
    var list: [String: PropertyListValue] = [:]
    list[Key.registration] = registration.map { .dictionary($0.propertyList) }
    list[Key.uids] = uids.map { .array($0.map(PropertyListValue.string)) }
    return .dictionary(list)
  }
}
