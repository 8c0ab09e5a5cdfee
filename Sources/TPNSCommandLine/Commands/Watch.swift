import ArgumentParsing
import Reactive
import TPNSKit

#if canImport(Glibc)
  import Glibc
#endif

/// `tpns watch`: keeps the server in sync with the store as it changes.
struct Watch: ParsableCommand {
  static var configuration: CommandConfiguration {
    CommandConfiguration(
      commandName: "watch",
      abstract: "Keep the server in sync with the store as it changes, until SIGINT or SIGTERM.",
      discussion: """
        Watches the store's directory (inotify). Registers the stored token if this server \
        has not acknowledged it, and sends the list whenever it differs from what the \
        server last acknowledged; after failed retries, tries again on the next change or \
        every --interval. Prints a line per event (JSON lines with --json). One watch per \
        store. A store that does not parse at the start is an error (exit 65); one that \
        breaks while watching is reported, and watched until it is fixed.
        """,
      options: [
        .option(
          "debounce", valueName: "ms", help: "Wait this long after a change for more.",
          defaultValue: "200", validate: { Int($0).map { $0 >= 0 && $0 <= 600_000 } ?? false }),
        .option(
          "interval", valueName: "seconds", help: "Try again this often while changes are pending.",
          defaultValue: "60", validate: { Double($0).map { $0 > 0 && $0 <= 86_400 } ?? false }),
      ] + GlobalOptions.options)
  }

  let debounce: Duration
  let interval: Duration
  let options: GlobalOptions

  init(_ values: ParsedValues) throws {
    debounce = .milliseconds(values.value("debounce", as: Int.self) ?? 200)
    let seconds = values.value("interval", as: Double.self) ?? 60
    interval = .milliseconds(Int64((seconds * 1000).rounded()))
    options = try GlobalOptions(values, environment: ProcessEnvironment.current)
  }

  func run() throws {
    // Blocked before any thread starts, so every thread inherits the mask.
    let signals = Signals(blocking: [SIGINT, SIGTERM])
    let runner = Runner(command: "watch", options: options, budgeted: false)
    let lock = try WatchLock(store: runner.store)
    defer { lock.release() }
    // A broken store at the start is the user's to fix now; later, a
    // half-written edit must not stop the service.
    _ = try runner.loadStore()
    let environment = runner.environment()
    let events = StoreWatcher.events(
      of: runner.store, debounce: debounce, scheduler: environment.scheduler)
    let checks = Observable.interval(interval, scheduler: environment.scheduler).map { _ in () }
    let viewModel = SyncViewModel(environment: environment)
    let formatting = OutcomeFormatting(options: options)
    let options = options
    let outcomes = viewModel.transform(.init(storeChanges: events, periodicChecks: checks)).outcomes
    let subscription = outcomes.subscribe(onNext: { outcome in
      Self.print(outcome, formatting: formatting, options: options)
    })
    if !options.quiet, !options.json {
      Console.error("watching \(options.storePath) for \(options.server)")
    }
    _ = signals.wait()
    // Disposing cancels a request in flight (libcurl polls the flag at least once a second).
    subscription.dispose()
  }

  static func print(_ outcome: Outcome, formatting: OutcomeFormatting, options: GlobalOptions) {
    if options.json {
      Console.line(formatting.json(outcome).rendered)
    } else if case .failed(let failure) = outcome {
      Console.line("failed: \(failure)")
    } else if !options.quiet, let line = formatting.line(outcome) {
      Console.line(line)
    }
  }
}
