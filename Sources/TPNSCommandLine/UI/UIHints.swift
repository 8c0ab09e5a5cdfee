import TPNSProtocol

/// What the UID field says under it as you type: the pipeline's own check
/// (``DeviceUID``) in the CLI's words; a UID the list has is not one to add.
struct UIDHint: Sendable, Equatable {
  let text: String
  /// Whether Enter would add it: a valid UID the list does not have.
  let isValid: Bool

  init(_ typed: String, list: [String] = []) {
    do {
      let uid = try DeviceUID(typed)
      if let row = list.firstIndex(of: uid.rawValue) {
        text = "\(uid) is in the list already (row \(row)): nothing to add"
        isValid = false
      } else {
        text = "\(uid) is a valid UID"
        isValid = true
      }
    } catch {
      isValid = false
      text = Self.reason(error, empty: "type a UID: \(DeviceUIDSyntax.length) letters or digits")
    }
  }

  /// The CLI's words for `error`, with how many characters are missing or too many.
  static func reason(_ error: IdentifierError, empty: String) -> String {
    switch error {
    case .empty:
      empty
    case .length(_, let actual, let expected) where actual < expected.lowerBound:
      "\(error): \(expected.lowerBound - actual) missing"
    case .length(_, let actual, let expected):
      "\(error): \(actual - expected.upperBound) too many"
    default:
      error.description
    }
  }
}

/// What the token field says under it as you type: the pipeline's own check
/// (``PushToken``, iOS) in the CLI's words, never showing the token.
struct TokenHint: Sendable, Equatable {
  let text: String
  /// The token Enter would register, nil when the text is not one.
  let token: PushToken?

  var isValid: Bool { token != nil }

  init(_ typed: String) {
    do {
      token = try PushToken(typed, os: .ios)
      text = "a valid iOS token: Enter registers it"
    } catch {
      token = nil
      text = UIDHint.reason(
        error,
        empty: "type the phone's token (\(IOSTokenSyntax.length) hex characters): "
          + "Enter registers it")
    }
  }
}
