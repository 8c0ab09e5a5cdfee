/// The value of the `os` parameter, one the vendor documents: which push service a
/// token belongs to. Only an iOS token has a syntax of its own (``usesAPNsTokens``).
///
///     OperatingSystem(rawValue: "huawei")?.usesAPNsTokens  // false
public enum OperatingSystem: String, CaseIterable, Sendable, Hashable {
  /// An APNs token: 64 hex characters (see ``IOSTokenSyntax``).
  case ios
  /// An FCM registration token (see ``AndroidTokenSyntax``).
  case android
  /// Tencent's XG push.
  case qqxg
  /// Baidu Cloud Push.
  case baidu
  /// Jiguang (JPush).
  case jiguang
  /// OPPO Push.
  case oppo
  /// Huawei Push Kit.
  case huawei
  /// Xiaomi (Mi) Push.
  case mi
  /// WeChat.
  case wechat

  /// Whether its tokens are APNs tokens (iOS: 64 hex characters), which are also the
  /// phone's `udid` unless it has its own; any other service's phone must send its own.
  public var usesAPNsTokens: Bool { self == .ios }

  /// The documented values, as a user reads them: `ios, android, qqxg, …`.
  public static var documentedValues: String {
    allCases.map(\.rawValue).joined(separator: ", ")
  }

  /// The syntax violation of `token` for this operating system, or nil when it is valid.
  public func tokenViolation(_ token: String) -> SyntaxViolation? {
    usesAPNsTokens
      ? IOSTokenSyntax.violation(in: token) : AndroidTokenSyntax.violation(in: token)
  }
}
