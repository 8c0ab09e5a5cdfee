/// A TPNS command: the value of the `cmd` form parameter, with its parameters in wire
/// order.
public enum CommandName: String, CaseIterable, Sendable, Hashable {
  /// Registers (or refreshes) a phone's push token.
  case client
  /// Replaces the phone's whole set of mapped device UIDs.
  case mapsync
  /// Maps one device UID to the phone.
  case mapping
  /// Removes one mapping.
  case rmMapping = "rm_mapping"
  /// Removes one mapping, or all of the phone's mappings when `uid` is absent.
  case unregMapping = "unreg_mapping"
  /// Sent by a device to announce itself.
  case device
  /// Sent by a device: an event to push to every phone mapped to it.
  case event
  /// A probe that changes nothing: apps send it to each address of the push
  /// host and take the first that answers `hi`.
  case hello

  /// The older name of the command, which firmware and older apps still send (to
  /// `/apns/apns.php`); nil for a command that has none.
  public var legacyName: String? {
    switch self {
    case .client: "reg_client"
    case .mapping: "reg_mapping"
    case .event: "raise_event"
    case .device: "reg_server"
    case .mapsync, .rmMapping, .unregMapping, .hello: nil
    }
  }

  /// The command a `cmd` value names, by its name or its older one (``legacyName``).
  public init?(wireName: String) {
    let command = Self(rawValue: wireName) ?? Self.allCases.first { $0.legacyName == wireName }
    guard let command else { return nil }
    self = command
  }

  /// The command's parameters, in the order a client sends them after `cmd`.
  public var parameters: [CommandParameter] {
    switch self {
    case .client: [.os, .appid, .udid, .token, .lang.optional, .dev.optional, .bgfetch.optional]
    case .mapsync: [.os, .appid, .udid, .map]
    case .mapping: [.os, .appid, .udid, .uid, .interval.optional, .format.optional]
    case .rmMapping: [.os, .appid, .udid, .uid]
    case .unregMapping: [.os, .appid, .udid, .uid.optional]
    case .device: [.uid]
    case .event: [.uid, .eventType, .msg.optional, .eventTime.optional]
    case .hello: []
    }
  }

  /// The parameter named `name` in this command, if it has one.
  public func parameter(named name: String) -> CommandParameter? {
    parameters.first { $0.name == name }
  }
}
