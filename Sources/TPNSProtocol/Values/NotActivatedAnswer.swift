/// The service's answer for UIDs not activated in the vendor's console (its
/// whitelist): HTTP 200 with a body whose first word is `422`, as shipping clients read
/// it on `mapping` and `rm_mapping`; for `mapsync`, whose answer is not public, the
/// emulator answers the same, naming the UIDs it did not map.
///
///     NotActivatedAnswer.text(naming: ["ABCDEFGHJKLMNPRSTUVW"])
///     // "422 not activated: ABCDEFGHJKLMNPRSTUVW"
public enum NotActivatedAnswer {
  /// The text that refuses `uids`, as the emulator answers it.
  public static func text(naming uids: [String]) -> String {
    "422 not activated: " + uids.joined(separator: ", ")
  }

  /// Whether `body` is a refusal: its first word is `422`.
  public static func isRefusal(_ body: String) -> Bool {
    let start = body.drop { $0.isWhitespace }
    guard start.hasPrefix("422") else { return false }
    return start.dropFirst(3).first.map { !$0.isLetter && !$0.isNumber } ?? true
  }

  /// The UIDs of `sent` that `body` names (in any case, between any separators), in
  /// the order sent, or all if it names none; nil when `body` is not a refusal.
  public static func refused(in body: String, of sent: [DeviceUID]) -> [DeviceUID]? {
    guard isRefusal(body) else { return nil }
    let words = body.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
    let named = Set(words.map { $0.uppercased() })
    let refused = sent.filter { named.contains($0.rawValue) }
    return refused.isEmpty ? sent : refused
  }
}
