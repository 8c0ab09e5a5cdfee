/// Who a phone is at the server: the `os`, `appid` and `udid` that every
/// phone-side command carries.
public struct Phone: Hashable, Sendable {
  /// The default application ID, the quickstart's.
  public static let defaultAppID = "com.tutk.cc.samples.tpns.ios"

  /// The default application ID of a phone of `os`: the quickstart's for iOS, its
  /// Android counterpart's for every other push service (all Android's).
  ///
  ///     Phone.defaultAppID(for: .android)  // "com.tutk.cc.samples.tpns.android"
  public static func defaultAppID(for os: OperatingSystem) -> String {
    os.usesAPNsTokens ? defaultAppID : "com.tutk.cc.samples.tpns.android"
  }

  /// Whose push service its token belongs to (`ios`, `android`, `huawei`, …).
  public var os: OperatingSystem
  /// The application ID.
  public var appID: String
  /// The phone's ID: an iOS phone's is its token.
  public var udid: String

  /// Whether `other` is the same phone at the server: the same `appid` and `udid`,
  /// whatever its `os` (`cmd=client` is an upsert keyed by the two).
  public func isSamePhone(as other: Phone) -> Bool {
    appID == other.appID && udid == other.udid
  }

  /// A phone.
  public init(os: OperatingSystem, appID: String = Phone.defaultAppID, udid: String) {
    self.os = os
    self.appID = appID
    self.udid = udid
  }
}
