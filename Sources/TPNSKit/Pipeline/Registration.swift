import TPNSProtocol

/// How a token is registered: the `client` command's other parameters.
public struct Registration: Sendable, Equatable {
  /// `ios` (the default) or `android`.
  public var os: OperatingSystem
  /// The application ID.
  public var appID: String
  /// The phone's ID; an iOS phone's defaults to its token, an Android phone must give one.
  public var udid: String?
  /// The phone's language (`lang`).
  public var language: String?
  /// APNs sandbox (`dev=1`).
  public var sandbox: Bool?

  /// A registration.
  public init(
    os: OperatingSystem = .ios, appID: String = Phone.defaultAppID, udid: String? = nil,
    language: String? = nil, sandbox: Bool? = nil
  ) {
    self.os = os
    self.appID = appID
    self.udid = udid
    self.language = language
    self.sandbox = sandbox
  }
}
