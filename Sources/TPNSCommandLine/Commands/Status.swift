import ArgumentParsing
import Posix
import TPNSKit

struct Status: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    abstract: "Show the token, the server, and whether the server has the stored list.",
    examples: [
      .init(
        "tpns status --json",
        "Show what is stored and pending, as JSON.")
    ],
    exitStatuses: GenerateManual.readingStatuses)

  @OptionGroup var reporting: ReportingOptions

  var options: GlobalOptions { reporting.resolved }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    let state = try runner.loadStore()
    let server = options.serverKey
    let difference = state.difference(at: server)
    let registration = state.registration
    // Servers that acknowledged the desired registration, this one first;
    // shown without credentials and query values, as the server in use is.
    let registeredAt = state.registeredServers
      .sorted { ($0 == server ? 0 : 1, $0) < ($1 == server ? 0 : 1, $1) }
      .map { ServerURL($0).redacted }
    let formerDefault = Self.formerDefault(of: state, server: server)
    // Counts against a list the server may not hold are null, not guesses.
    let unknown = difference.listIsUnknown
    func count(_ uids: [String]) -> OrderedJSON { unknown ? .null : .number(uids.count) }
    if options.json {
      let formerPhones = difference.formerPhones.map { phone in
        OrderedJSON.object([
          ("os", .string(phone.os.rawValue)), ("appid", .string(phone.appID)),
          ("udid", .string(options.show(phone.udid))),
        ])
      }
      Console.line(
        OrderedJSON.object([
          ("command", .string("status")),
          ("server", .string(options.shownServer)),
          ("store", .string(options.storePath)),
          ("token", registration.map { .string(options.show($0.token.rawValue)) } ?? .null),
          ("os", registration.map { .string($0.phone.os.rawValue) } ?? .null),
          ("appid", registration.map { .string($0.phone.appID) } ?? .null),
          ("udid", registration.map { .string(options.show($0.phone.udid)) } ?? .null),
          ("lang", registration.map { .string($0.language) } ?? .null),
          ("dev", registration.map { .bool($0.sandbox) } ?? .null),
          ("registered", .bool(difference.isRegistered)),
          ("registered_server", registeredAt.first.map(OrderedJSON.string) ?? .null),
          ("registered_servers", .array(registeredAt.map(OrderedJSON.string))),
          ("former_default_server", formerDefault.map(OrderedJSON.string) ?? .null),
          ("uids", .array(state.uids.map(OrderedJSON.string))),
          (
            "acknowledged_uids",
            difference.acknowledged.uids == nil || unknown
              ? .null : .array(difference.acknowledgedUIDs.map(OrderedJSON.string))
          ),
          ("pending", .bool(difference.isPending)),
          ("not_activated", .array(difference.notActivated.map(OrderedJSON.string))),
          ("needs_registration", .bool(difference.desired == nil || difference.needsRegistration)),
          ("former_phones", .array(formerPhones)),
          ("to_add", count(difference.toAdd)),
          ("to_remove", count(difference.toRemove)),
          ("to_update", count(difference.toUpdate)),
          ("next", difference.nextCommand.map(OrderedJSON.string) ?? .null),
        ]).rendered)
      return
    }
    let token =
      registration.map { "\(options.show($0.token.rawValue)) (\($0.phone.os.rawValue))" }
      ?? "none (tpns register --token-file FILE, or TPNS_TOKEN)"
    let registered =
      if registration == nil {
        "no (no token)"
      } else if difference.isRegistered {
        "yes"
      } else if !registeredAt.isEmpty {
        "no (acknowledged at \(registeredAt.joined(separator: ", ")), not here)"
      } else if !difference.formerPhones.isEmpty {
        "no (this server holds a former phone)"
      } else {
        "no"
      }
    // What is in line is green, what is pending or missing yellow.
    let inLine = difference.nextCommand == nil && difference.notActivated.isEmpty
    var rows: [(String, String, Palette.Style?)] = [
      ("server", options.shownServer, nil), ("store", options.storePath, nil),
      ("token", token, nil),
      ("registered", registered, difference.isRegistered ? .success : .pending),
      ("uids", String(state.uids.count), nil),
      ("pending", Self.pending(difference), inLine ? .success : .pending),
    ]
    if let formerDefault {
      rows.append(
        (
          "note",
          "the store's acknowledgements are at the former default, \(formerDefault) "
            + "(--server \(formerDefault) uses it; tpns sync sends the store here)", .pending
        ))
    }
    // Each phone this server may still push the cameras to, until it
    // acknowledges the removal of its mappings.
    rows += difference.formerPhones.map { phone in
      (
        "former", "\(options.show(phone.udid)) (\(phone.os.rawValue), \(phone.appID)) to unmap",
        .pending
      )
    }
    // Neither in line nor pending: refused by the server until activated.
    rows += difference.notActivated.map { uid in
      let next = "activate it in your TPNS console, then tpns sync"
      return ("refused", "\(uid), not activated at this server: \(next)", .pending)
    }
    for (label, value, style) in rows {
      runner.output.line(UIRenderer.pad(label, 12) + value, style: style)
    }
  }

  /// The former default server when the default, in use, has acknowledged
  /// nothing and the former has: a store from before the default changed.
  static func formerDefault(of state: StoreContents, server: String) -> String? {
    let former = ServerLocation.formerDefault.storeKey
    guard server == ServerLocation.realService.storeKey, state.servers[server] == nil,
      state.servers[former] != nil
    else { return nil }
    return former
  }

  /// The pending line: what the server in use lacks, and the command that sends it.
  static func pending(_ difference: StoreDifference) -> String {
    guard let next = difference.nextCommand else {
      let refused = difference.notActivated.count
      if refused > 0 {
        return
          "no, but the server refused \(refused) UID\(refused == 1 ? "" : "s") as not activated"
      }
      return difference.desired == nil
        ? "no: no token and no UIDs are stored" : "no, the server has the list"
    }
    if difference.waitsForToken {
      let count = difference.uids.count
      return "yes: \(count) UID\(count == 1 ? " waits" : "s wait") for a token (\(next))"
    }
    var parts: [String] = []
    if difference.needsRegistration { parts.append("the registration") }
    let formers = difference.formerPhones.count
    if formers > 0 { parts.append("\(formers) former phone\(formers == 1 ? "" : "s") to unmap") }
    if difference.listIsUnknown {
      parts.append("the server's list is unknown")
    } else if difference.listDiffers {
      let updates = difference.toUpdate.count
      if difference.toAdd.isEmpty, difference.toRemove.isEmpty, updates == 0 {
        parts.append("the order of the list")
      } else {
        var list = "\(difference.toAdd.count) to add, \(difference.toRemove.count) to remove"
        if updates > 0 { list += ", settings of \(updates) UID\(updates == 1 ? "" : "s")" }
        parts.append(list)
      }
    }
    let repairs = difference.listIsUnknown ? " repairs it" : ""
    return "yes: \(parts.joined(separator: ", ")) (\(next)\(repairs))"
  }
}
