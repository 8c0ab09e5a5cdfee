import TPNSProtocol
import Testing

@Suite("CommandName")
struct CommandNameTests {
  @Test(
    "lists its parameters in wire order, required first where the table says",
    arguments: [
      (CommandName.client, "os appid udid token lang? dev? bgfetch?"),
      (.mapsync, "os appid udid map"),
      (.mapping, "os appid udid uid interval? format?"),
      (.rmMapping, "os appid udid uid"),
      (.unregMapping, "os appid udid uid?"),
      (.device, "uid"),
      (.event, "uid event_type msg? event_time?"),
      (.hello, ""),
    ])
  func parameters(command: CommandName, expected: String) {
    let listed = command.parameters.map { $0.name + ($0.isRequired ? "" : "?") }
    #expect(listed.joined(separator: " ") == expected)
  }

  @Test("parses wire names")
  func wireNames() {
    #expect(
      CommandName.allCases.map(\.rawValue) == [
        "client", "mapsync", "mapping", "rm_mapping", "unreg_mapping", "device", "event", "hello",
      ])
    #expect(CommandName(rawValue: "rm_mapping") == .rmMapping)
    #expect(CommandName(rawValue: "rmMapping") == nil)
    #expect(CommandName.event.parameter(named: "msg")?.isRequired == false)
  }
}
