/// Why a UID or token typed by a user is not valid: what is wrong and where.
public enum IdentifierError: Error, Equatable, CustomStringConvertible {
  /// The kind of identifier, as messages name it.
  public enum Kind: Sendable, Hashable {
    /// A device UID.
    case uid
    /// An APNs token.
    case iosToken
    /// The token of another push service (FCM's syntax): `android`, `huawei`, ….
    case token(OperatingSystem)

    /// An FCM token.
    public static let androidToken = Kind.token(.android)

    /// How messages name it: "UID", "iOS token", "Android token", "huawei token".
    public var rawValue: String {
      switch self {
      case .uid: "UID"
      case .iosToken: "iOS token"
      case .token(.android): "Android token"
      case .token(let os): "\(os.rawValue) token"
      }
    }
  }

  /// Nothing but white space was given.
  case empty(Kind)
  /// The length (after normalising) is wrong.
  case length(Kind, actual: Int, expected: ClosedRange<Int>)
  /// A character is not allowed; `position` is 1-based.
  case character(Kind, Unicode.Scalar, position: Int)
  /// The iOS 13 `{length = 32, bytes = 0x… … …}` description, which is truncated.
  case truncatedIOSDescription

  init(_ kind: Kind, _ violation: SyntaxViolation) {
    switch violation {
    case .length(let actual, let expected): self = .length(kind, actual: actual, expected: expected)
    case .character(let scalar, let position): self = .character(kind, scalar, position: position)
    }
  }

  public var description: String {
    switch self {
    case .empty(let kind):
      return "the \(kind.rawValue) is empty"
    case .length(let kind, let actual, let expected):
      let unit = kind == .iosToken ? "hex characters" : "characters"
      return "\(kind.article) \(kind.rawValue) must be \(expected.spoken) \(unit), got \(actual)"
    case .character(let kind, let scalar, let position):
      return
        "character \(Self.show(scalar)) at position \(position) is not allowed in "
        + "\(kind.article.lowercased()) \(kind.rawValue) (\(kind.allowed))"
    case .truncatedIOSDescription:
      return
        "this is the iOS 13 `{length = 32, bytes = …}` description, which is truncated: "
        + "print the token as hex instead"
    }
  }

  /// A character as a message shows it: printable ASCII quoted, anything else as U+XXXX.
  static func show(_ scalar: Unicode.Scalar) -> String {
    if scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7F { return "'\(Character(scalar))'" }
    return scalar.codePoint
  }
}

extension IdentifierError.Kind {
  /// The indefinite article of its name, capitalised: "A UID", "An oppo token".
  public var article: String {
    switch self {
    case .uid: "A"
    case .iosToken: "An"
    case .token(let os): os.rawValue.first.map { "aeiou".contains($0) } == true ? "An" : "A"
    }
  }

  fileprivate var allowed: String {
    switch self {
    case .uid: "only A-Z and 0-9"
    case .iosToken: "only hex digits"
    case .token: "only A-Z, a-z, 0-9 and _ : . -"
    }
  }
}
