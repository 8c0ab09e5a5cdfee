/// A form parameter of a ``CommandName``: its wire name and whether it must be sent.
public struct CommandParameter: Sendable, Hashable, CustomStringConvertible {
  /// The name on the wire, e.g. `appid`.
  public let name: String
  /// Whether a request without it is malformed.
  public let isRequired: Bool

  /// A parameter named `name`, required unless `isRequired` is false.
  public init(_ name: String, isRequired: Bool = true) {
    self.name = name
    self.isRequired = isRequired
  }

  /// The same parameter, optional.
  public var optional: CommandParameter { CommandParameter(name, isRequired: false) }

  public var description: String { name }

  /// The name of the parameter that selects the command.
  public static let cmd = CommandParameter("cmd")
  /// `ios` or `android` (see ``OperatingSystem``).
  public static let os = CommandParameter("os")
  /// The application identifier, e.g. `com.tutk.cc.samples.tpns.ios`.
  public static let appid = CommandParameter("appid")
  /// The phone's identifier; on iOS, the token itself.
  public static let udid = CommandParameter("udid")
  /// The push token (APNs on iOS, FCM on Android).
  public static let token = CommandParameter("token")
  /// The phone's language.
  public static let lang = CommandParameter("lang")
  /// `1` for the APNs sandbox, `0` for production.
  public static let dev = CommandParameter("dev")
  /// `1` when the app uses background fetch.
  public static let bgfetch = CommandParameter("bgfetch")
  /// The base64 payload of `mapsync` (see ``MapPayload``).
  public static let map = CommandParameter("map")
  /// A device UID (see ``DeviceUIDSyntax``).
  public static let uid = CommandParameter("uid")
  /// The minimum number of seconds between two pushes of a mapping.
  public static let interval = CommandParameter("interval")
  /// The push message format of a mapping.
  public static let format = CommandParameter("format")
  /// The type of an event, an integer.
  public static let eventType = CommandParameter("event_type")
  /// The event's message.
  public static let msg = CommandParameter("msg")
  /// When the event happened, in seconds since 1970.
  public static let eventTime = CommandParameter("event_time")
}
