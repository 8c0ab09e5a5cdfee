import ArgumentParsing
import Reactive
import TPNSKit
import TPNSProtocol

/// `tpns event <uid>`: acts as the device and reports an event (cmd=event).
struct Event: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "event",
      abstract: "Act as the device: send an event for a UID, to test a push end to end.",
      options: [
        .option(
          "type", valueName: "n",
          help: "The event type (event_type), a whole number up to \(Int32.max).",
          defaultValue: "1", validate: { Int32($0).map { $0 >= 0 } ?? false }),
        .option(
          "message", valueName: "text",
          help:
            "The message (msg): up to \(EventMessageSyntax.lengths.upperBound) characters, "
            + "taken as is even if it starts with '-'; empty: none.",
          parsing: .unconditional),
        .option(
          "time", valueName: "epoch", help: "When it happened, in seconds since 1970 (event_time).",
          validate: { Int($0).map { $0 >= 0 } ?? false }),
      ] + GlobalOptions.sending,
      arguments: [Argument("uid", help: "The device's UID.")])
  }

  let uid: String
  let type: Int
  let message: String?
  let time: Int?
  let options: GlobalOptions

  init(_ values: ParsedValues) throws {
    uid = values.argument("uid").first ?? ""
    type = values.value("type", as: Int.self) ?? 1
    // An empty message is no message: `msg` is left out, as without --message.
    message = values.value("message").flatMap { $0.isEmpty ? nil : $0 }
    time = values.value("time", as: Int.self)
    options = try GlobalOptions(
      values, environment: ProcessEnvironment.current, traffic: .withoutToken)
  }

  func run() throws {
    let runner = Runner(command: "event", options: options)
    let device: DeviceUID
    do { device = try DeviceUID(uid) } catch { throw runner.failure(.invalidUID(uid, error)) }
    if let message, let violation = EventMessageSyntax.violation(in: message) {
      let limit = EventMessageSyntax.lengths.upperBound
      throw runner.fail(
        "invalid message: it \(violation)",
        hint:
          "Give a message of at most \(limit) characters; newlines and tabs are allowed, "
          + "other control characters are not.",
        code: ExitStatus.dataError)
    }
    let environment = try runner.environment()
    let outcomes = environment.request(
      .event(uid: device, type: type, message: message, time: time),
      // An event pushes: never sent twice after a timeout.
      idempotent: false
    ) { .sent(.event, response: $0.body) }
    .catchingFailures(.event)
    try runner.finish(outcomes)
  }
}
