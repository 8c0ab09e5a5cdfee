import TPNSProtocol

/// How a token is registered: the `client` command's other parameters.
public struct Registration: Sendable, Equatable {
  /// `ios` (the default), `android`, or another documented push service.
  public var os: OperatingSystem
  /// The application ID.
  public var appID: String
  /// The phone's ID; an iOS phone's defaults to its token, any other phone must give one.
  public var udid: String?
  /// The phone's language (`lang`), sent on every `client` request.
  public var language: String
  /// APNs sandbox (`dev=1`), sent on every `client` request.
  public var sandbox: Bool

  /// A registration; `lang` and `dev` are the service's defaults unless given.
  public init(
    os: OperatingSystem = .ios, appID: String = Phone.defaultAppID, udid: String? = nil,
    language: String = PhoneRegistration.defaultLanguage, sandbox: Bool = false
  ) {
    self.os = os
    self.appID = appID
    self.udid = udid
    self.language = language
    self.sandbox = sandbox
  }
}
