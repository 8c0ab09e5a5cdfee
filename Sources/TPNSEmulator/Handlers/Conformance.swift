/// What the emulator does with a request that a canonical client would not send but
/// real clients do (an unknown parameter, a `map` broken into lines, an `os` beyond
/// `ios` and `android`): by default it accepts it and records a warning, as the real
/// service accepts it; in strict mode (`tpns-server --strict`) it refuses it with 400.
///
/// One value goes through the checks of one request, collecting its warnings:
///
///     try conformance.tolerate("parameter 'lang' is empty", "ignored")
///     conformance.warnings  // ["parameter 'lang' is empty (ignored)"]
struct Conformance: Sendable {
  /// Most warnings kept for one request; the rest are counted in a last one.
  static let maximumWarnings = 20

  let isStrict: Bool
  /// What was irregular, in the order found.
  private(set) var warnings: [String] = []
  private var omitted = 0

  init(isStrict: Bool) {
    self.isStrict = isStrict
  }

  /// Accepts what a canonical client would not send, recording `reason` (and what
  /// was done about it, `consequence`: "ignored", "taken as 3") as a warning; in
  /// strict mode, refuses the request with `reason` (400).
  mutating func tolerate(_ reason: String, _ consequence: String? = nil) throws(RequestError) {
    if isStrict { throw .badRequest(reason) }
    guard warnings.count < Self.maximumWarnings else {
      omitted += 1
      return
    }
    warnings.append(consequence.map { "\(reason) (\($0))" } ?? reason)
  }

  /// The warnings, with a last one counting those past ``maximumWarnings``.
  var allWarnings: [String] {
    omitted == 0 ? warnings : warnings + ["\(omitted) more warning\(omitted == 1 ? "" : "s")"]
  }
}
