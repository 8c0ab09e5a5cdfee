import ArgumentParsing
import TPNSKit

struct Sync: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    abstract: "Send the stored list to the server again (after a failure, or to repair it).",
    discussion: """
      Brings the server in line with the store: registers the stored token if this server \
      has not acknowledged it (after a failed 'tpns register', a server that forgot it, or \
      another --server), removes the mappings of a former phone it still holds, then sends \
      the list, whether or not it is pending. Also repairs a server that lost what the \
      store says it acknowledged (a restored backup, a restarted emulator). \
      Without a stored token it sends nothing and exits 78.
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
    let runner = Runner(command: Self.commandName, options: options)
    try runner.checkCACertificate()
    // Without a token nothing can reach a server: a script's `tpns sync &&
    // deploy` must not go on as if the list were there.
    guard try runner.loadStore().registration != nil else {
      throw runner.fail(
        "no token is registered: nothing was sent to \(options.shownServer)",
        hint: "Register the phone's token first (tpns register --token-file FILE, or "
          + "TPNS_TOKEN), which sends the stored list too.",
        code: ExitStatus.notRegistered)
    }
    try runner.run(.init(syncRequests: .just(())))
  }
}
