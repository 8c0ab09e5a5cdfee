import TPNSProtocol
import Testing

@Suite("Command")
struct CommandTests {
  @Test(
    "lists its parameters in wire order, required first where the table says",
    arguments: [
      (Command.client, "os appid udid token lang? dev? bgfetch?"),
      (.mapsync, "os appid udid map"),
      (.mapping, "os appid udid uid interval? format?"),
      (.rmMapping, "os appid udid uid"),
      (.unregMapping, "os appid udid uid?"),
      (.device, "uid"),
      (.event, "uid event_type msg? event_time?"),
    ])
  func parameters(command: Command, expected: String) {
    let listed = command.parameters.map { $0.name + ($0.isRequired ? "" : "?") }
    #expect(listed.joined(separator: " ") == expected)
  }

  @Test("parses wire names")
  func wireNames() {
    #expect(
      Command.allCases.map(\.rawValue) == [
        "client", "mapsync", "mapping", "rm_mapping", "unreg_mapping", "device", "event",
      ])
    #expect(Command(rawValue: "rm_mapping") == .rmMapping)
    #expect(Command(rawValue: "rmMapping") == nil)
    #expect(Command.event.parameter(named: "msg")?.isRequired == false)
  }
}
