import ArgumentParsing
import TPNSKit
import TPNSProtocol

struct DeviceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "device",
    abstract: "Act as the device: announce a UID to the server, as a camera does when it starts.",
    examples: [
      .init(
        "tpns device 0123456789ABCDEFGHJK",
        "Announce the device (cmd=device); the server records when it was last seen."),
      .init(
        "tpns device 0123456789ABCDEFGHJK --legacy --method get -v",
        "Send it as camera firmware does (GET /apns/apns.php?cmd=reg_server&...), traced."),
    ])

  @Argument(help: "The device's UID.") var uid: String
  @Flag(help: LegacyForm.help) var legacy = false
  @OptionGroup var sending: SendingOptions

  var options: GlobalOptions { LegacyForm.options(sending.resolved, legacy: legacy) }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    let device: DeviceUID
    do { device = try DeviceUID(uid) } catch { throw runner.failure(.invalidUID(uid, error)) }
    try runner.send(.device(uid: device))
  }
}
