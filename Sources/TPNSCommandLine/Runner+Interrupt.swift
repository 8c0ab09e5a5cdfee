import ArgumentParsing
import Glibc
import Posix
import TPNSKit

extension Runner {
  /// From now on, SIGINT and SIGTERM end the command with its result as it
  /// stands (`--json`: `"interrupted": true`) and the next step, then by the
  /// signal. Blocks both in this thread and every later one: call it before
  /// any starts. `storesNothing`: the command (`event`) stores nothing, and says so.
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
        // Its request may have reached the server, and would act again if sent again.
        (
          "interrupted by \(name) before \(options.shownServer) answered; nothing was stored",
          command == "device"
            ? "The announcement may have reached the server: running it again does no harm."
            : "The \(command) may have reached the server: run it again only if no push came."
        )
      } else {
        Self.interruption(
          name, difference: state?.difference(at: options.serverKey), server: options.shownServer)
      }
    let code = ExitCode(128 + signal)
    if options.json {
      var document = document(
        events: outcomesSoFar.value.map(formatting.json), errors: [message], code: code,
        hint: hint, state: state)
      if case .object(var members) = document {
        members.insert(("interrupted", .bool(true)), at: 2)
        document = .object(members)
      }
      Console.line(document.rendered)
    }
    output.error("Error: \(message)")
    output.error(hint)
  }

  /// What an interrupt left, for the store's `difference` (nil: unreadable).
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
}
