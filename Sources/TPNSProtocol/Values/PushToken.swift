/// A push token of `os`'s service (``OperatingSystem/tokenViolation(_:)``). The only
/// way to make one validates: white space around it is trimmed; an iOS token is
/// lower-cased and may be given in the `<0123abcd 4567ef01 …>` form, but not as the
/// iOS 13 `{length = 32, bytes = 0x… … …}` description.
///
///     try PushToken("<0123ABCD …>", os: .ios).rawValue  // "0123abcd…"
public struct PushToken: Hashable, Sendable, CustomStringConvertible {
  /// Whose push service the token belongs to.
  public let os: OperatingSystem
  /// The normalised token, as sent on the wire.
  public let rawValue: String

  /// Validates and normalises `text` as a token for `os`.
  public init(_ text: String, os: OperatingSystem) throws(IdentifierError) {
    self.os = os
    // A token as it is stored and sent (64 of `0-9a-f`) is taken as it is, without
    // the searches below for the forms to normalise.
    if os.usesAPNsTokens, text.utf8.count == 64,
      text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    {
      rawValue = text
      return
    }
    var token = text.trimmingWhitespace()
    let kind: IdentifierError.Kind = os.usesAPNsTokens ? .iosToken : .token(os)
    guard !token.isEmpty else { throw .empty(kind) }
    if os.usesAPNsTokens {
      if token.hasPrefix("{") && token.contains("length") || token.contains("bytes = 0x") {
        throw .truncatedIOSDescription
      }
      if token.hasPrefix("<") && token.hasSuffix(">") {
        token = String(token.dropFirst().dropLast().filter { $0 != " " })
      }
    }
    // Checked as typed, so that a refusal names the character given ('G', not 'g').
    if let violation = os.tokenViolation(token) { throw IdentifierError(kind, violation) }
    if os.usesAPNsTokens {
      token = String(String.UnicodeScalarView(token.unicodeScalars.map(\.asciiLowercased)))
    }
    rawValue = token
  }

  /// The token with all but its last 6 characters hidden, for output and logs.
  public var masked: String {
    MaskedSecret(rawValue).description
  }

  /// The masked form: a token is never printed in full by accident.
  public var description: String {
    masked
  }
}
