/// The value of the `os` parameter: which push service a token belongs to.
public enum OperatingSystem: String, CaseIterable, Sendable, Hashable {
  /// An APNs token: 64 hex characters (see ``IOSTokenSyntax``).
  case ios
  /// An FCM registration token (see ``AndroidTokenSyntax``).
  case android

  /// The syntax violation of `token` for this operating system, or nil when it is valid.
  public func tokenViolation(_ token: String) -> SyntaxViolation? {
    switch self {
    case .ios: return IOSTokenSyntax.violation(in: token)
    case .android: return AndroidTokenSyntax.violation(in: token)
    }
  }
}
