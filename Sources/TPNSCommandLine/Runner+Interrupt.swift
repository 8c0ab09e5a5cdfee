import ArgumentParsing
import Posix
import TPNSKit

#if canImport(Glibc)
  import Glibc
#endif

extension Runner {
  /// From now on, SIGINT (Ctrl-C) and SIGTERM end the command with its
  /// result as it stands (with `--json`, the document, `"interrupted": true`)
  /// and the next step; then the process ends by the signal. Blocks both in
  /// this thread and every one started after it: call it before any is.
  /// `storesNothing`: the command (`event`) stores nothing, and says so.
  func takeInterrupts(storesNothing: Bool = false) {
    let signals = Signals(blocking: [SIGINT, SIGTERM])
    let runner = self
    signals.handleOnce { signal in
      // A command printing its result ends of itself.
      runner.lastWord.lock()
      runner.reportInterrupt(by: signal, storesNothing: storesNothing)
      Signals.endBy(signal)
    }
  }

  /// Says that `signal` interrupted the command, and what the store holds now.
  private func reportInterrupt(by signal: Int32, storesNothing: Bool) {
    let name = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
    let state = try? store.load()
    if let state { mask.learn(from: state) }
    let (message, hint) =
      if storesNothing {
        Self.interruptionStoringNothing(name, command: command, server: options.shownServer)
      } else {
        Self.interruption(
          name, difference: state?.difference(at: options.serverKey), server: options.shownServer)
      }
    let code = ExitCode(128 + signal)
    if options.json {
      let formatting = OutcomeFormatting(options: options, mask: mask)
      let outcomes = outcomesSoFar.value
      var document = document(
        events: outcomes.map(formatting.json), errors: [message], code: code, hint: hint,
        state: state)
      if case .object(var members) = document {
        members.insert(("interrupted", .bool(true)), at: 2)
        document = .object(members)
      }
      Console.line(document.rendered)
    }
    output.error("Error: \(message)")
    output.error(hint)
  }

  /// What an interrupt left: the message and the next step, for the store's
  /// `difference` at `server` (nil: the store cannot be read).
  static func interruption(
    _ signal: String, difference: StoreDifference?, server: String
  ) -> (message: String, hint: String) {
    guard let difference else {
      return (
        "interrupted by \(signal); the store cannot be read",
        "Run 'tpns status' to see what is stored and pending."
      )
    }
    guard difference.isPending else {
      return (
        "interrupted by \(signal); nothing stored is pending at \(server)",
        "Run 'tpns status' to see what is stored; run the command again if it is not there."
      )
    }
    let next = difference.nextCommand ?? "tpns sync"
    return (
      "interrupted by \(signal); what is stored is pending at \(server): it was not all sent",
      "Run '\(next)' to send it ('tpns status' shows what is pending)."
    )
  }

  /// What an interrupt left of `command`, which stores nothing: its request
  /// may have reached `server`, which had not answered; sent again, it would
  /// act again (an event pushes again).
  static func interruptionStoringNothing(
    _ signal: String, command: String, server: String
  ) -> (message: String, hint: String) {
    (
      "interrupted by \(signal) before \(server) answered; nothing was stored",
      command == "device"
        ? "The announcement may have reached the server: running it again does no harm."
        : "The \(command) may have reached the server: run it again only if no push came."
    )
  }
}
