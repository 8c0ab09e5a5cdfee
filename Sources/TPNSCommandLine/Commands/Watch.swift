import ArgumentParsing
import Glibc
import Posix
import Reactive
import TPNSKit

struct Watch: TPNSSubcommand {
  static let configuration = CommandConfiguration(
    abstract: "Keep the server in sync with the store as it changes, until SIGINT or SIGTERM.",
    discussion: """
      Watches the store's directory (inotify; for a link, the real file's directory too), \
      and keeps watching when the directory is replaced or deleted and restored. Waits \
      --debounce for a burst of changes to settle, but no longer than --max-delay. \
      Registers the stored token if this server has not acknowledged it, and sends the \
      list whenever it differs from what the server last acknowledged; after failed \
      retries, tries again on the next change, on SIGHUP, or every --interval. SIGHUP \
      re-reads the store, sets up the watches again, and sends what is pending. Prints a line per event, starting with its \
      time (ISO 8601, UTC); JSON lines with --json, the first a 'started' event. One \
      watch per store. A store that does not parse at the start is an error \
      (exit 65); one that breaks while watching is reported, and watched until it is fixed.
      """,
    examples: [
      .init(
        "tpns watch --json",
        "Keep the server in line with the store, printing a JSON line per event.")
    ],
    // A failed request is reported and tried again, not an exit.
    exitStatuses: [
      .init(0, "Stopped by SIGINT or SIGTERM (a request in flight is cancelled within a second)."),
      .init(64, "Usage: an unknown option or a bad option value."),
      .init(65, "The store does not parse at the start, holds what it may not, or is over 64 MiB."),
      .init(73, "The store cannot be read or written, or is not safe to use."),
      .init(74, "Standard output could not be written (a full disk, say)."),
      .init(
        75, "Another watch holds the store (its pid is named), or a lock was not acquired in time."),
    ])

  static let milliseconds = "a whole number of milliseconds from 0 to 600000"

  @Option(
    name: .customLong("debounce"),
    help: ArgumentHelp("Wait this long after a change for more (up to 600000).", valueName: "ms"),
    validate: { (0...600_000).contains($0) }, expectation: Self.milliseconds)
  var debounceTime = 200
  @Option(
    name: .customLong("max-delay"),
    help: ArgumentHelp(
      "Sync after this long even if changes keep coming (up to 600000).", valueName: "ms"),
    validate: { (0...600_000).contains($0) }, expectation: Self.milliseconds)
  var maxDelayTime = 2000
  @Option(
    name: .customLong("interval"),
    help: ArgumentHelp(
      "Try again this often while changes are pending (up to 86400).", valueName: "seconds"),
    validate: { $0 <= Seconds(86_400) }, expectation: "a number of seconds above 0, up to 86400")
  var retryInterval = Seconds(60)
  @OptionGroup var sending: TokenSendingOptions

  var debounce: Duration { .milliseconds(debounceTime) }
  var maxDelay: Duration { .milliseconds(maxDelayTime) }
  var interval: Duration { retryInterval.duration }
  var options: GlobalOptions { sending.resolved }

  func run() throws {
    // Blocked before any thread starts, so every thread inherits the mask.
    // SIGUSR1 is how the watcher's thread tells this one that it re-armed.
    let signals = Signals(blocking: [SIGINT, SIGTERM, SIGHUP, SIGUSR1])
    let options = options
    // With --json, a warning (a token about to go out in clear) is a line too.
    let warningLine: (@Sendable (String) -> Void)? =
      options.json
      ? { @Sendable message in Self.printLine("warning", [("message", .string(message))]) } : nil
    let runner = Runner(
      command: Self.commandName, options: options, budgeted: false, streamWarning: warningLine)
    var lock = try WatchLock(store: runner.store)
    defer { lock.release() }
    // A broken store at the start is the user's to fix now; later, a
    // half-written edit must not stop the service.
    _ = try runner.loadStore()
    let environment = try runner.environment()
    let reloads = PublishSubject<Void>()
    let changes = DirectoryWatcher.changes(of: runner.store.path, rearm: reloads.asObservable())
      .share()
    // The store's directory may be another one now: the lock goes where it is.
    let rearms = changes.filter { $0 != .file }.subscribe(onNext: { _ in kill(getpid(), SIGUSR1) })
    defer { rearms.dispose() }
    let events = StoreWatcher.events(
      of: runner.store, changes: changes, debounce: debounce, maxDelay: maxDelay,
      scheduler: environment.scheduler)
    // A reload asks for a check too: the re-read finds the store as it was
    // (nothing to report), but what is pending (after failed retries, say)
    // is sent now rather than at the next --interval.
    let reloadChecks = PublishSubject<Void>()
    let checks = Observable.merge(
      Observable.interval(interval, scheduler: environment.scheduler).map { _ in () },
      reloadChecks.observe(on: environment.scheduler))
    let viewModel = SyncViewModel(environment: environment)
    let printer = OutcomePrinter(view: .watch, formatting: runner.formatting, output: runner.output)
    let output = runner.output
    let outcomes = viewModel.transform(.init(storeChanges: events, periodicChecks: checks)).outcomes
    // The first JSON line, before any outcome (some come as the watch subscribes).
    if options.json {
      Self.printLine(
        "started",
        [
          ("store", .string(options.storePath)), ("server", .string(options.shownServer)),
          ("pid", .number(Int(getpid()))),
        ])
    }
    let subscription = outcomes.subscribe(onNext: printer.print)
    // Disposing cancels a request in flight (libcurl polls the flag at least once a second).
    defer { subscription.dispose() }
    if !options.quiet, !options.json {
      output.error(
        OutcomePrinter.stamped("watching \(options.storePath) for \(options.shownServer)"))
    }
    while true {
      switch signals.wait().signal {
      case SIGHUP:
        // Re-read and re-arm, as daemons do.
        if options.json {
          Self.printLine("reloading", [("store", .string(options.storePath))])
        } else if !options.quiet {
          output.line(OutcomePrinter.stamped("reloading: re-reading \(options.storePath)"))
        }
        reloads.onNext(())
        reloadChecks.onNext(())
      case SIGUSR1:
        try lock.follow(runner.store)
      default:
        return
      }
    }
  }

  /// A `--json` line: `{"event":…,"time":…,…}`.
  static func printLine(_ event: String, _ members: [(String, OrderedJSON)]) {
    Console.line(OutcomePrinter.stamped(.object([("event", .string(event))] + members)).rendered)
  }
}
