import DurationFormatting
import TPNSKit
import TPNSProtocol

/// How outcomes read, as text lines (printed through ``TextOutput``) and as
/// JSON; what a server said, with the tokens masked.
struct OutcomeFormatting {
  let options: GlobalOptions
  let mask: TokenMask
  /// Whether a line names the server (`tpns ui`'s header names it instead).
  var namesServer = true

  /// The line for an outcome, or nil for one reported elsewhere (failures).
  func line(_ outcome: Outcome) -> String? {
    switch outcome {
    case .added(let uid, let settings):
      return "added \(uid)" + (settings.isEmpty ? "" : " (\(Self.describe(settings)))")
    case .alreadyPresent(let uid): return "\(uid) is already in the list"
    case .settingsChanged(let uid, let settings):
      return "updated \(uid): \(settings.isEmpty ? "no settings" : Self.describe(settings))"
    case .mapped(let uid, let settings, _):
      return
        "mapped \(uid)" + (settings.isEmpty ? "" : " (\(Self.describe(settings)))")
        + place("at", options.server)
    case .unmapped(let uid, let command, let response):
      // What the server said, not a claim of ours: it may say the UID was
      // not mapped (one never sent).
      let which = uid.map(\.rawValue) ?? "every UID of this phone"
      let body = mask(response.trimmingWhitespace()).escapingControlCharacters
      guard !body.isEmpty else {
        return "unmapped \(which)\(place("at", options.server)) (\(command.rawValue))"
      }
      return "sent \(command.rawValue) of \(which)\(place("to", options.server)): \(body)"
    case .removed(let uid, let index): return "removed \(index)  \(uid)"
    case .alreadyRemoved(let uid):
      return "\(uid) is no longer in the list; sending its removal"
    case .unregistered(let former, _):
      return
        "unmapped the former phone \(options.show(former.udid)) (\(former.os.rawValue), "
        + "\(former.appID))\(place("at", options.shownServer))"
    case .registrationLost(let server):
      return "\(ServerURL(server).redacted) no longer knows this phone; registering it again"
    case .registered(let token, _):
      return "registered \(options.show(token.rawValue))\(place("at", options.shownServer))"
    case .synced(let uids, _):
      return
        "synced \(uids.count) UID\(uids.count == 1 ? "" : "s")\(place("to", options.shownServer))"
    case .sent(let command, let response):
      // One line: a body's own newlines are escaped with the rest.
      let body = mask(response.trimmingWhitespace()).escapingControlCharacters
      return "sent \(command.rawValue)\(body.isEmpty ? "" : ": \(body)")"
    case .waitingForRegistration(let uids):
      return
        "stored \(uids.count) UID\(uids.count == 1 ? "; it is" : "s; they are") sent once a token is "
        + "registered (tpns register --token-file FILE, or TPNS_TOKEN)"
    case .retrying(let command, let attempt, let of, let delay, let reason):
      // A jittered wait may be a few milliseconds, or none (Retry-After: 0): never "0 s".
      let milliseconds = delay.rounded(to: .milliseconds)
      let wait =
        if milliseconds == 0 {
          "now"
        } else if milliseconds < 100 {
          "in \(milliseconds) ms"
        } else {
          "in " + delay.text(in: .seconds, fractionDigits: 1)
        }
      return "retrying \(wait) (attempt \(attempt)/\(of)): \(command.rawValue): " + mask(reason)
    case .storeDeleted:
      return "the store \(options.storePath) was deleted; waiting for it to come back"
    case .storeAbsent:
      return
        "the store \(options.storePath) does not exist yet; waiting for it "
        + "('tpns register' or 'tpns add' creates it)"
    case .failed:
      return nil
    }
  }

  private func place(_ preposition: String, _ server: String) -> String {
    namesServer ? " \(preposition) \(server)" : ""
  }

  /// The JSON object for an outcome: its `event`, then its members.
  func json(_ outcome: Outcome) -> OrderedJSON {
    func uid(_ uid: DeviceUID) -> (String, OrderedJSON) { ("uid", .string(uid.rawValue)) }
    func uids(_ uids: [DeviceUID]) -> (String, OrderedJSON) {
      ("uids", .array(uids.map { .string($0.rawValue) }))
    }
    // Every server's answer is masked: any of them may echo the token.
    func response(_ text: String) -> (String, OrderedJSON) {
      ("response", .string(mask(Self.body(text))))
    }
    let store: (String, OrderedJSON) = ("store", .string(options.storePath))
    let (event, members): (String, [(String, OrderedJSON)]) =
      switch outcome {
      case .added(let id, let settings): ("added", [uid(id)] + Self.fields(settings))
      case .alreadyPresent(let id): ("already_present", [uid(id)])
      case .settingsChanged(let id, let settings):
        ("updated", [uid(id)] + Self.fields(settings))
      case .mapped(let id, let settings, let text):
        ("mapped", [uid(id)] + Self.fields(settings) + [response(text)])
      case .unmapped(let id, let command, let text):
        (
          "unmapped",
          [
            ("uid", id.map { .string($0.rawValue) } ?? .null), ("cmd", .string(command.rawValue)),
            response(text),
          ]
        )
      case .removed(let text, let index):
        ("removed", [("index", .number(index)), ("uid", .string(text))])
      case .registered(let token, let text):
        ("registered", [("token", .string(options.show(token.rawValue))), response(text)])
      case .synced(let list, let text): ("synced", [uids(list), response(text)])
      case .sent(let command, let text):
        ("sent", [("cmd", .string(command.rawValue)), response(text)])
      case .waitingForRegistration(let list): ("waiting_for_registration", [uids(list)])
      case .retrying(let command, let attempt, let of, let delay, let reason):
        (
          "retrying",
          [
            ("cmd", .string(command.rawValue)), ("attempt", .number(attempt)),
            ("max_attempts", .number(of)),
            ("delay_ms", .number(Int(delay.rounded(to: .milliseconds)))),
            ("reason", .string(mask(reason))),
          ]
        )
      case .storeDeleted: ("store_deleted", [store])
      case .storeAbsent: ("store_absent", [store])
      case .alreadyRemoved(let id): ("already_removed", [uid(id)])
      case .unregistered(let former, let text):
        (
          "unregistered",
          [
            ("udid", .string(options.show(former.udid))), ("os", .string(former.os.rawValue)),
            ("appid", .string(former.appID)), response(text),
          ]
        )
      case .registrationLost(let server):
        ("registration_lost", [("server", .string(ServerURL(server).redacted))])
      case .failed(let failure):
        ("failed", [("error", .string(mask(failure.description).escapingControlCharacters))])
      }
    return .object([("event", .string(event))] + members)
  }

  /// The `--verbose` lines of one HTTP attempt, marked as `curl -v` does (the
  /// URL's credentials and query values hidden, the token masked):
  ///
  ///     > POST http://127.0.0.1:7380/tpns (cmd=mapsync)
  ///     < 200 after 3 ms
  func lines(_ exchange: TPNSClient.Exchange) -> [String] {
    let url = exchange.shownURL(showingTokens: options.showToken)
    let time = exchange.duration.text(in: .milliseconds, fractionDigits: 0)
    let reason = exchange.failure.map { "\($0)" } ?? "unknown"
    let answer =
      exchange.status.map { "< \($0) after \(time)" } ?? "< no response after \(time): \(reason)"
    return ["> \(exchange.method.rawValue) \(url) (cmd=\(exchange.sentName))", answer]
  }

  /// A server's answer as `--json` gives it: without the line end that
  /// closes the body (`ok\n` is `ok`), anything else as it came.
  static func body(_ response: String) -> String {
    // Scalars: `\r\n` is one Character.
    var scalars = Substring(response).unicodeScalars
    if scalars.last == "\n" { scalars.removeLast() }
    if scalars.last == "\r" { scalars.removeLast() }
    return String(scalars)
  }

  /// A mapping's settings for people: `interval 30 s, format "motion at %s"`.
  static func describe(_ settings: MappingSettings) -> String {
    [
      settings.interval.map { "interval \($0) s" },
      settings.format.map { "format \(JSONString.quoted($0))" },
    ].compactMap { $0 }.joined(separator: ", ")
  }

  /// A mapping's settings as JSON members, each only when set.
  static func fields(_ settings: MappingSettings) -> [(String, OrderedJSON)] {
    [
      settings.interval.map { ("interval", OrderedJSON.number($0)) },
      settings.format.map { ("format", OrderedJSON.string($0)) },
    ].compactMap { $0 }
  }
}
