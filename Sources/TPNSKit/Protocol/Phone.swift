import TPNSProtocol

/// Who a phone is at the server: the `os`, `appid` and `udid` that every
/// phone-side command carries.
public struct Phone: Hashable, Sendable {
  /// The default application ID, the quickstart's.
  public static let defaultAppID = "com.tutk.cc.samples.tpns.ios"

  /// The default application ID of a phone of `os`: the quickstart's for iOS,
  /// its Android counterpart's for Android.
  ///
  ///     Phone.defaultAppID(for: .android)  // "com.tutk.cc.samples.tpns.android"
  public static func defaultAppID(for os: OperatingSystem) -> String {
    switch os {
    case .ios: defaultAppID
    case .android: "com.tutk.cc.samples.tpns.android"
    }
  }

  /// `ios` or `android`.
  public var os: OperatingSystem
  /// The application ID.
  public var appID: String
  /// The phone's ID: an iOS phone's is its token.
  public var udid: String

  /// A phone.
  public init(os: OperatingSystem, appID: String = Phone.defaultAppID, udid: String) {
    self.os = os
    self.appID = appID
    self.udid = udid
  }
}
