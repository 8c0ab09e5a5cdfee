import ArgumentParsing
import TPNSKit
import TPNSProtocol

struct EventCommand: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    commandName: "event",
    abstract: "Act as the device: send an event for a UID, to test a push end to end.",
    examples: [
      .init(
        "tpns event 0123456789ABCDEFGHJK --message hello",
        "Act as the device: push \"hello\" to every phone mapped to it."),
      .init(
        "tpns event 0123456789ABCDEFGHJK --type 2 --legacy --method get -v",
        "Send it as camera firmware does (GET /apns/apns.php?cmd=raise_event&...), traced."),
    ])

  @Argument(help: "The device's UID.") var uid: String
  @Option(
    name: .customLong("type"),
    help: ArgumentHelp(
      "The event type (event_type), a whole number up to \(Int32.max).", valueName: "n"),
    validate: { $0 >= 0 }, expectation: "a whole number from 0 to \(Int32.max)")
  var eventType: Int32 = 1
  @Option(
    name: .customLong("message"), parsing: .unconditional,
    help: ArgumentHelp(
      "The message (msg): up to \(EventMessageSyntax.lengths.upperBound) characters, taken as "
        + "is even if it starts with '-'; empty: none.", valueName: "text"))
  var givenMessage: String?
  @Option(
    help: ArgumentHelp("When it happened, in seconds since 1970 (event_time).", valueName: "epoch"),
    validate: { $0 >= 0 }, expectation: "a whole number of seconds since 1970, 0 or more")
  var time: Int?
  @Flag(help: LegacyForm.help) var legacy = false
  @OptionGroup var sending: SendingOptions

  /// The message; an empty one is no message: `msg` is left out, as without --message.
  var message: String? { givenMessage.flatMap { $0.isEmpty ? nil : $0 } }
  var type: Int { Int(eventType) }
  var options: GlobalOptions { LegacyForm.options(sending.resolved, legacy: legacy) }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    let device: DeviceUID
    do { device = try DeviceUID(uid) } catch { throw runner.failure(.invalidUID(uid, error)) }
    if let message, let violation = EventMessageSyntax.violation(in: message) {
      let limit = EventMessageSyntax.lengths.upperBound
      // An empty --message is taken (as none), so the length is said as the upper bound.
      let reason =
        if case .length(let actual, _) = violation {
          "has \(actual) characters, at most \(limit) are allowed (an empty --message sends none)"
        } else {
          "\(violation)"
        }
      throw runner.fail(
        "invalid message: it \(reason)",
        hint:
          "Give a message of at most \(limit) characters; newlines and tabs are allowed, "
          + "other control characters are not.",
        code: ExitStatus.dataError)
    }
    // An event pushes: never sent twice after a timeout.
    try runner.send(
      .event(uid: device, type: type, message: message, time: time), idempotent: false)
  }
}
