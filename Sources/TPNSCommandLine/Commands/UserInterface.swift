import ArgumentParsing
import Locking
import Reactive
import TPNSKit
import Terminal

/// `tpns ui`: the quickstart's screen in a terminal, a View on the pipeline.
struct UserInterface: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ui",
    abstract: "Edit the token and the UID list on an interactive screen (a terminal only).",
    discussion: """
      The iOS quickstart's screen: the server and the masked token at the top, with whether \
      this server acknowledged it; a token field (Enter registers it; a newer token entered \
      while one registers cancels the older registration); a UID field checked as you type, \
      the reason shown under it, whose Add (Enter) is enabled exactly when the UID and the \
      token are valid; the list with its indexes, marking what this server has not \
      acknowledged; a status line with each outcome as it happens. The list follows the \
      store when another process changes it (as 'tpns watch' does) and sends what is \
      pending. Keys: Tab and Shift-Tab move between the token field, the UID field and the \
      list; in the list, Up and Down select, Delete removes the selected UID, s sends the \
      list again, q quits; Esc goes to the list; Ctrl-C quits from anywhere. The terminal \
      is left as it was on every way out (q, Ctrl-C, SIGTERM, SIGHUP, a crash). Needs a \
      terminal of at least 40x12; piped, use the one-shot commands.
      """,
    examples: [
      .init("tpns ui", "Register a token and map devices by hand, on the default server."),
      .init(
        "tpns-server exec -- tpns ui",
        "Try the screen against a local emulator on a free port."),
    ],
    exitStatuses: [
      .init(0, "Quit with q."),
      .init(64, "Not a terminal (piped): use the one-shot commands; or --verbose given."),
      .init(65, "The store does not parse."),
      .init(130, "Quit with Ctrl-C (as SIGINT); SIGTERM and SIGHUP end it as those signals do."),
    ])

  @OptionGroup var interactive: InteractiveOptions

  var options: GlobalOptions { interactive.resolved }

  func run() throws {
    guard TerminalSession.isTerminal() else {
      throw CommandFailure(
        "tpns ui needs a terminal on standard input and output",
        hint: "Piped, use the one-shot commands: tpns register, add, remove, list, sync, "
          + "status (or tpns watch to follow the store).",
        exitCode: .usage)
    }
    let options = options
    let runner = Runner(
      command: Self.commandName, options: options, budgeted: false, printsWarnings: false)
    // A broken store is reported before the screen takes over (exit 65).
    let stored = try runner.loadStore()
    let environment = try runner.environment()
    let scheduler = environment.scheduler
    let formatting = OutcomeFormatting(options: options, mask: runner.mask, namesServer: false)
    let mask = runner.mask
    let context = UIContext(
      server: options.serverKey, showToken: { options.show($0) },
      describe: { outcome in Self.status(of: outcome, formatting: formatting, mask: mask) })
    let initial = UIState.initial(stored, context: context)
    let storeChanges = StoreWatcher.events(
      of: runner.store, debounce: .milliseconds(50), maxDelay: .milliseconds(500),
      scheduler: scheduler)
    let checks = Observable.interval(.seconds(60), scheduler: scheduler).map { _ in () }
    let session = UISession(
      viewModel: SyncViewModel(environment: environment), context: context, initial: initial)

    let keys = PublishSubject<Key>()
    let latest = LockedState(initial)
    let wake = try WakePipe()
    let renderer = UIRenderer(
      server: options.shownServer, palette: Palette.of(1, choice: options.color))
    let terminal = try TerminalSession.enter()
    // Everything the pipeline does runs on its queue; this thread only
    // reads keys and draws, so a slow server never holds up typing.
    let subscription = session.states(
      keys: keys.observe(on: scheduler), storeChanges: storeChanges, checks: checks
    )
    .subscribe(on: scheduler)
    .subscribe(onNext: { state in
      latest.withLock { $0 = state }
      wake.wake()
    })
    var decoder = KeyDecoder()
    var size = terminal.size
    var shown: Frame?
    while true {
      let state = latest.value
      if let exit = state.exit {
        subscription.dispose()
        terminal.restore()
        if exit == .interrupted { throw ExitCode(130) }
        return
      }
      let frame = renderer.frame(state, columns: size.columns, rows: size.rows)
      if frame != shown {
        terminal.write(frame.update(from: shown))
        shown = frame
      }
      for event in terminal.wait(timeout: nil, wake: wake.readEnd) {
        switch event {
        case .input(let bytes):
          for key in decoder.decode(bytes) { keys.onNext(key) }
        case .resized:
          size = terminal.size
          shown = nil
        case .signal(let signal):
          subscription.dispose()
          terminal.end(with: signal)
        case .hangUp:
          subscription.dispose()
          terminal.restore()
          return
        case .woken:
          break
        }
      }
    }
  }

  /// The status line of an outcome: the CLI's words without the server
  /// (the header names it), coloured as the CLI colours them.
  static func status(
    of outcome: Outcome, formatting: OutcomeFormatting, mask: TokenMask
  ) -> UIState.Status {
    switch outcome {
    case .failed(let failure):
      return UIState.Status(text: "failed: \(mask(failure.description))", style: .failure)
    case .storeAbsent:
      // The CLI's line names the path; at the start of a screen, what to do matters.
      return UIState.Status(
        text: "no store yet: a token or a UID typed here creates it", style: .pending)
    case .retrying, .waitingForRegistration, .storeDeleted, .registrationLost:
      return UIState.Status(text: formatting.line(outcome) ?? "", style: .pending)
    default:
      return UIState.Status(text: formatting.line(outcome) ?? "", style: .success)
    }
  }
}

extension UserInterface: TPNSSubcommand {}
