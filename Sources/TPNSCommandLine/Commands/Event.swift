import ArgumentParsing
import Reactive
import TPNSKit

/// `tpns event <uid>`: acts as the device and reports an event (cmd=event).
struct Event: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "event",
      abstract: "Act as the device: send an event for a UID, to test a push end to end.",
      options: [
        .option(
          "type", valueName: "n", help: "The event type (event_type).", defaultValue: "1",
          validate: { Int($0) != nil }),
        .option("message", valueName: "text", help: "The message (msg)."),
        .option(
          "time", valueName: "epoch", help: "When it happened, in seconds since 1970 (event_time).",
          validate: { Int($0).map { $0 >= 0 } ?? false }),
      ] + GlobalOptions.options,
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
    message = values.value("message")
    time = values.value("time", as: Int.self)
    options = try GlobalOptions(values, environment: ProcessEnvironment.current)
  }

  func run() throws {
    let runner = Runner(command: "event", options: options)
    let device: DeviceUID
    do { device = try DeviceUID(uid) } catch { throw runner.failure(.invalidUID(uid, error)) }
    let environment = runner.environment()
    let outcomes = environment.request(
      .event(uid: device, type: type, message: message, time: time),
      // An event pushes: never sent twice after a timeout.
      idempotent: false
    ) { .sent(.event, response: $0.body) }
    .catchingFailures(.event)
    try runner.finish(outcomes)
  }
}
