import ArgumentParsing
import Locking
import Reactive
import TPNSKit
import Terminal

struct UserInterface: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    commandName: "ui",
    abstract: "Edit the token and the UID list on an interactive screen (a terminal only).",
    discussion: """
      The iOS quickstart's screen: the server and the masked token at the top, with whether \
      this server acknowledged it; a token field, checked as you type with the reason shown \
      under it, its text a bullet for each character unless revealed with Ctrl-R (or \
      --show-token); Enter registers a valid token, which stays in the field until the \
      server acknowledges it, or with the server's reason when it is refused (a newer token \
      entered while one registers cancels the older registration); a UID field checked as \
      you type, the reason shown under it, whose Add (Enter) is enabled exactly when the \
      UID is valid and not in the list and a token is stored; the list with its indexes, \
      marking what this server has not acknowledged; a status line with each outcome as it \
      happens (a long one wraps). The list follows the store when another process changes \
      it (as 'tpns watch' does) and sends what is pending. Keys: Tab and Shift-Tab move \
      between the token field, the UID field and the list, Up and Down between the fields; \
      in the list, Up and Down select, Delete removes the selected UID, s sends the list \
      again (once a token is stored), q quits; Esc goes to the list; Ctrl-R shows or hides \
      the token typed; Ctrl-C quits from anywhere. The terminal is left as it was on every \
      way out (q, Ctrl-C, SIGTERM, SIGHUP, a crash). Needs a terminal of at least 40x12 \
      that can draw a screen (TERM set, and not to dumb); piped, use the one-shot commands.
      """,
    examples: [
      .init("tpns ui", "Register a token and map devices by hand, on the default server."),
      .init(
        "tpns-server exec -- tpns ui",
        "Try the screen against a local emulator on a free port."),
    ],
    exitStatuses: [
      .init(0, "Quit with q."),
      .init(
        64,
        "Not a terminal that can draw a screen (piped, or TERM unset or dumb): use the "
          + "one-shot commands."),
      .init(
        65,
        "The store does not parse, holds what a store may not (a UID twice, say), or is over "
          + "64 MiB."),
      .init(73, "The store cannot be read or written, or is not safe to use."),
      .init(74, "Standard output could not be written (a full disk, say)."),
      .init(130, "Quit with Ctrl-C (as SIGINT); SIGTERM and SIGHUP end it as those signals do."),
    ])

  @OptionGroup var interactive: InteractiveOptions

  var options: GlobalOptions { interactive.resolved }

  /// The one-shot commands, for a hint of what to use without a screen.
  static let oneShotCommands =
    "the one-shot commands: tpns register, add, remove, list, sync, status (or tpns watch "
    + "to follow the store)"

  /// Why `tpns ui` cannot draw here, or nil: it needs a terminal on both
  /// ends, and one whose `TERM` says it moves the cursor (a dumb terminal,
  /// such as Emacs's shell, would show the escape sequences as text).
  static func refusal(isTerminal: Bool, term: String?) -> CommandFailure? {
    guard isTerminal else {
      return CommandFailure(
        "tpns ui needs a terminal on standard input and output",
        hint: "Piped, use \(oneShotCommands).", exitCode: .usage)
    }
    let term = term?.trimmingWhitespace() ?? ""
    guard !term.isEmpty, term != "dumb" else {
      return CommandFailure(
        term.isEmpty
          ? "tpns ui draws a screen, and TERM is not set: it cannot tell what the terminal does"
          : "tpns ui draws a screen, and TERM=dumb says this terminal cannot move the cursor",
        hint: "Run it in a terminal emulator (TERM=xterm-256color, say), or use "
          + "\(oneShotCommands).",
        exitCode: .usage)
    }
    return nil
  }

  func run() throws {
    if let refusal = Self.refusal(
      isTerminal: TerminalSession.isTerminal(), term: ProcessEnvironment.current["TERM"])
    {
      throw refusal
    }
    let options = options
    let runner = Runner(
      command: Self.commandName, options: options, budgeted: false, printsWarnings: false)
    // A broken store is reported before the screen takes over (exit 65).
    let stored = try runner.loadStore()
    let environment = try runner.environment()
    let scheduler = environment.scheduler
    let formatting = OutcomeFormatting(options: options, mask: runner.mask, namesServer: false)
    let context = UIContext(
      server: options.serverKey, showToken: { options.show($0) },
      describe: { outcome in Self.status(of: outcome, formatting: formatting) })
    let initial = UIState.initial(stored, context: context, revealsToken: options.showToken)
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
      for event in terminal.wait(wake: wake.readEnd) {
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
  /// (the header names it), coloured as the CLI colours them (news: green).
  static func status(of outcome: Outcome, formatting: OutcomeFormatting) -> UIState.Status {
    switch outcome {
    case .failed(let failure):
      return UIState.Status(
        text: "failed: \(formatting.mask(failure.description))", style: .failure)
    case .storeAbsent:
      // The CLI's line names the path; at the start of a screen, what to do matters.
      return UIState.Status(
        text: "no store yet: a token entered here creates it", style: .pending)
    default:
      return UIState.Status(
        text: formatting.line(outcome) ?? "", style: OutcomePrinter.style(of: outcome) ?? .success)
    }
  }
}
