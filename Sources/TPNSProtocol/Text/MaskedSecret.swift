/// A secret (a push token, or a udid, which on iOS is the token) as it is printed in
/// errors and logs: its last 6 characters after `…`, or the whole when it has 6 or
/// fewer, enough to tell two apart and nothing to register with.
///
///     "udid '\(MaskedSecret(udid))'"  // "udid '…d2e1f0'"
public struct MaskedSecret: Sendable, CustomStringConvertible {
  public let description: String

  public init(_ secret: some StringProtocol) {
    description = secret.count <= 6 ? String(secret) : "…" + secret.suffix(6)
  }
}
