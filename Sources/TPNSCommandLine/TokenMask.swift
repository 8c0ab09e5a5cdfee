import Locking
import TPNSKit
import TPNSProtocol

/// What output hides unless `--show-token`: each run of 24 or more hex
/// digits (a UID has 20 characters) and each echo of a token or phone ID the
/// command holds (``TokenEcho``), shown as its last 6 characters. The store is
/// read for the known tokens only when a server's text is masked.
///
///     mask("error: token 0f1e…(64 hex)…e1f0 is not registered")
///     // "error: token …d2e1f0 is not registered"
struct TokenMask: Sendable {
  /// `--show-token`: nothing is masked.
  let showsTokens: Bool
  private let known: LockedState<[String]?>
  private let loadKnown: @Sendable () -> [String]
  private let remembered = LockedState<[String]>([])

  /// `known` lists the tokens and phone IDs to hide (read once, when needed).
  init(showsTokens: Bool, known: @escaping @Sendable () -> [String] = { [] }) {
    self.showsTokens = showsTokens
    self.known = LockedState(nil)
    loadKnown = known
  }

  /// Takes the known tokens from `state` (the store as the command read it), unless known.
  func learn(from state: StoreContents) {
    known.withLock { cached in
      if cached == nil { cached = Self.tokens(in: state) }
    }
  }

  /// Masks `token` too, from now on (a token given to the command, not stored yet).
  func remember(_ token: String) {
    guard token.count > 6 else { return }
    remembered.withLock { $0.append(token) }
  }

  /// The tokens and phone IDs in `state`: of every registration and former phone.
  static func tokens(in state: StoreContents) -> [String] {
    let registrations = [state.registration] + state.servers.values.map(\.registration)
    return registrations.compactMap { $0 }.flatMap { [$0.token.rawValue, $0.phone.udid] }
      + state.servers.values.flatMap { $0.formerPhones.map(\.udid) }
  }

  /// `text` from a server with the known tokens and the runs of hex digits masked.
  func callAsFunction(_ text: String) -> String {
    guard !showsTokens else { return text }
    let stored = known.withLock { cached in
      if cached == nil { cached = loadKnown() }
      return cached ?? []
    }
    // Longest first: a token that contains another is masked whole.
    let tokens = Set(stored + remembered.value).filter { $0.count > 6 }
      .sorted { $0.count > $1.count }
    return hexRuns(TokenEcho.mask(tokens, in: text))
  }

  /// `text` with each run of 24 or more hex digits masked (no store read:
  /// every line of output goes through this).
  func hexRuns(_ text: String) -> String {
    guard !showsTokens, Self.hasLongHexRun(text) else { return text }
    return text.replacing(/[0-9A-Fa-f]{24,}/.matchingSemantics(.unicodeScalar)) { run in
      "…" + run.output.suffix(6)
    }
  }

  /// Whether `hexRuns` has anything to mask: read without copying and without the
  /// regular expression, for the common case of nothing to mask.
  private static func hasLongHexRun(_ text: String) -> Bool {
    var run = 0
    for byte in text.utf8 {
      let isHexDigit =
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)
        || (0x61...0x66).contains(byte)
      run = isHexDigit ? run + 1 : 0
      if run == 24 { return true }
    }
    return false
  }

  /// A token as output shows it: `…` and its last 6 characters.
  static func shown(_ token: String) -> String {
    MaskedSecret(token).description
  }
}
