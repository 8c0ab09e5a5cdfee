import ArgumentParsing
import TPNSKit
import TPNSProtocol

struct Mapping: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    abstract: "Add one UID to the list and send it alone (cmd=mapping), for scripts.",
    discussion: """
      The UID is stored as 'tpns add' stores it (with the settings given; a setting not \
      given is kept), then sent with cmd=mapping and its stored settings in place of a \
      mapsync, whether or not the server has it. A setting cleared (--no-interval, \
      --no-format) first removes the mapping with a mapsync without the UID, since \
      leaving a setting out keeps it at the service; cmd=mapping then maps it again at \
      the end of the server's list, so a UID that is not last in the stored list is put \
      back in its place by one more mapsync of the whole list. Otherwise a mapsync \
      follows only if the server still lacks something else. Before 'tpns register' \
      the UID waits in the list.
      """,
    examples: [
      .init(
        "tpns mapping ABCDEFGHJKLMNPRSTUVW --interval 30",
        "Map one UID alone with its interval (cmd=mapping).")
    ])

  @Argument(help: "A 20-character device UID.") var uid: String
  @OptionGroup var settings: MappingSettingsOptions
  @OptionGroup var sending: TokenSendingOptions

  var options: GlobalOptions { sending.resolved }

  func run() throws {
    let runner = Runner(command: Self.commandName, options: options)
    let update = try settings.update(runner: runner)
    try runner.run(.init(additions: .just(.init([uid], settings: update, sending: .mapping))))
  }
}
