import ArgumentParsing
import TPNSKit

/// `tpns status`: the registration and whether the server has the list.
struct Status: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "status",
      abstract: "Show the token, the server, and whether the server has the stored list.",
      options: GlobalOptions.options)
  }

  let options: GlobalOptions

  init(_ values: ParsedValues) throws {
    options = try GlobalOptions(values, environment: ProcessEnvironment.current)
  }

  func run() throws {
    let state = try Runner(command: "status", options: options).loadStore()
    let synced = state.syncedUIDs ?? []
    let toAdd = state.uids.filter { !synced.contains($0) }.count
    let toRemove = synced.filter { !state.uids.contains($0) }.count
    let registeredHere = state.registered && state.server == options.server
    if options.json {
      Console.line(
        JSONValue.object([
          ("command", .string("status")),
          ("server", .string(options.server)),
          ("store", .string(options.storePath)),
          ("token", state.token.map { .string(options.show($0)) } ?? .null),
          ("os", state.os.map(JSONValue.string) ?? .null),
          ("registered", .bool(registeredHere)),
          ("registered_server", state.server.map(JSONValue.string) ?? .null),
          ("uids", .array(state.uids.map(JSONValue.string))),
          ("pending", .bool(state.hasPendingChanges)),
          ("to_add", .number(toAdd)),
          ("to_remove", .number(toRemove)),
        ]).rendered)
      return
    }
    let token =
      state.token.map { "\(options.show($0)) (\(state.os ?? "ios"))" }
      ?? "none (tpns register <token>)"
    var registered = registeredHere ? "yes" : "no"
    if state.registered, let other = state.server, other != options.server {
      registered = "no (registered at \(other))"
    }
    let pending =
      state.hasPendingChanges
      ? "yes: \(toAdd) to add, \(toRemove) to remove (tpns sync)" : "no, the server has the list"
    let rows = [
      ("server", options.server), ("store", options.storePath), ("token", token),
      ("registered", registered), ("uids", String(state.uids.count)), ("pending", pending),
    ]
    Console.line(rows.map { $0.0.padding(to: 12) + $0.1 }.joined(separator: "\n"))
  }
}

extension String {
  /// The text padded with spaces to `width`.
  func padding(to width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }
}
