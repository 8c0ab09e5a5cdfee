import ArgumentParsing
import TPNSKit

/// `tpns sync`: sends the stored list again.
struct Sync: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Send the stored list to the server again (after a failure, or to repair it).",
    discussion: """
      Brings the server in line with the store: registers the stored token if this server \
      has not acknowledged it (after a failed 'tpns register', a server that forgot it, or \
      another --server), removes the mappings of a former phone it still holds, then sends \
      the list, whether or not it is pending. Also repairs a server that lost what the \
      store says it acknowledged (a restored backup, a restarted emulator).
      """,
    examples: [
      .init(
        "tpns sync",
        "Send the stored list again, registering first if this server has not acknowledged the token."
      )
    ])

  @OptionGroup var sending: TokenSendingOptions

  var options: GlobalOptions { sending.resolved }

  func run() throws {
    try Runner(command: Self.commandName, options: options)
      .run(.init(syncRequests: .just(())))
  }
}
