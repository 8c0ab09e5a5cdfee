import ArgumentParsing
import Locking
import Posix
import Reactive
import TPNSKit
import TPNSProtocol

/// Runs one command's inputs through the pipeline to the end, printing each
/// outcome as it comes, then the result: the View of a one-shot command.
struct Runner {
  /// How long ``finish(_:)`` waits for the pipeline past the ``deadline``,
  /// for the work no wait bounds (a write's `fsync`, a transfer's cancellation).
  static let grace = Duration.seconds(30)

  let command: String
  let options: GlobalOptions
  /// When the command's time (`--timeout`) runs out, counted from when the
  /// runner was made; nil for `watch`, whose every request has its own. Every
  /// limit of a one-shot command comes from it.
  let deadline: ContinuousClock.Instant?
  /// The store; for a one-shot command, no lock wait goes past the ``deadline``.
  let store: Store
  /// The store as this command last read it, or the pipeline last read or
  /// wrote it: what the `--json` document reports, instead of reading the
  /// store again.
  private let lastRead = LockedState<StoreContents?>(nil)
  /// What a server said, with the tokens masked (unless `--show-token`).
  let mask: TokenMask
  /// Text for people: control characters escaped, tokens masked.
  let output: TextOutput
  /// The warnings so far: on stderr as they come, and in the `--json` document.
  let warnings: Warnings
  /// Where a one-shot command's pipeline runs: on the main thread, while
  /// ``finish(_:)`` waits (libcurl too). Nil for `watch`, whose pipeline
  /// runs on a queue while the main thread waits for signals.
  let runLoop: RunLoopScheduler?
  /// The outcomes printed so far: what an interrupted command reports.
  let outcomesSoFar = LockedState<[Outcome]>([])
  /// Held by whoever prints the command's result: the command at its end,
  /// or an interrupt (``takeInterrupts()``), never both. Never released:
  /// the process ends after it.
  let lastWord = Lock()

  /// The runner of `command`; with `budgeted`, the command's time starts now.
  /// `streamWarning`, if given, also prints each warning as it comes (`watch
  /// --json`'s `warning` lines); with `printsWarnings` false, only it does
  /// (`ui`, whose screen has no room for stderr).
  init(
    command: String, options: GlobalOptions, budgeted: Bool = true,
    streamWarning: (@Sendable (String) -> Void)? = nil, printsWarnings: Bool = true
  ) {
    self.command = command
    self.options = options
    let deadline = budgeted ? ContinuousClock.now + options.timeout : nil
    self.deadline = deadline
    runLoop = budgeted ? RunLoopScheduler() : nil
    let store = Store(path: options.storePath, deadline: deadline)
    self.store = store
    mask = TokenMask(showsTokens: options.showToken) {
      (try? store.load()).map(TokenMask.tokens(in:)) ?? []
    }
    let output = TextOutput(
      mask: mask, palette: Palette.of(1, choice: options.color),
      errorPalette: Palette.of(2, choice: options.color))
    self.output = output
    warnings = Warnings { message in
      if printsWarnings { output.error("Warning: \(message)") }
      streamWarning?(message)
    }
  }

  /// The live environment: the plist store, libcurl (made at the first
  /// request), and where the pipeline runs. Fails if the `--cacert` file
  /// cannot be used, before anything is stored or sent.
  func environment() throws -> PipelineEnvironment {
    try checkCACertificate()
    let options = options
    let store = store
    let formatting = OutcomeFormatting(options: options, mask: mask)
    let output = output
    let log: (@Sendable (TPNSClient.Exchange) -> Void)? =
      options.verbose ? { @Sendable exchange in output.errors(formatting.lines(exchange)) } : nil
    // The store records the server without its credentials; requests go to it as given.
    let makeClient = { @Sendable () throws -> TPNSClient in
      let transport = try CurlTransport(
        options: TransportOptions(
          timeout: options.timeout, caCertificatePath: options.caCertificate))
      return TPNSClient(
        server: options.server, method: options.method, legacy: options.legacy,
        transport: transport, log: log)
    }
    let live: ServerClient
    let scheduler: any SchedulerType
    if let runLoop {
      live = ServerClient.live(
        url: options.serverKey, scheduler: runLoop, inline: true, makeClient: makeClient)
      scheduler = runLoop
    } else {
      let queue = SerialDispatchQueueScheduler(label: "tpns.pipeline")
      live = ServerClient.live(url: options.serverKey, scheduler: queue, makeClient: makeClient)
      scheduler = queue
    }
    // A token about to cross the network in clear is warned about, once.
    let cleartext =
      options.serverURL.isCleartextOverNetwork
      ? Warnings.cleartext(to: options.serverURL, environment: ProcessEnvironment.current) : nil
    let warnings = warnings
    let server = ServerClient(url: live.url) { request, timeout in
      if let cleartext, request.carriesToken { warnings.add(cleartext) }
      return live.send(request, timeout)
    }
    return PipelineEnvironment(
      store: .live(store), server: server, scheduler: scheduler,
      retryPolicy: RetryPolicy(timeLimit: options.timeout),
      deadline: deadline.map { scheduler.now + Self.timeLeft(until: $0) })
  }

  /// Fails (66 unreadable, 65 no PEM file) if `--cacert` names a file that
  /// cannot be used: a bad argument, found before anything else.
  func checkCACertificate() throws {
    if let problem = options.caCertificateProblem() {
      throw fail(
        problem.message,
        hint: "Pass a readable PEM file of CA certificates with --cacert or TPNS_CACERT.",
        code: problem.unreadable ? ExitStatus.noInput : ExitStatus.dataError)
    }
  }

  /// The time from now until `deadline` (zero once it is past).
  private static func timeLeft(until deadline: ContinuousClock.Instant) -> Duration {
    max(deadline - .now, .zero)
  }

  /// The stored state, for the commands that only read it (`list`, `status`,
  /// `register`'s defaults).
  func loadStore() throws -> StoreContents {
    warnIfStoreExposed()
    do {
      let state = try store.load()
      lastRead.withLock { $0 = state }
      return state
    } catch {
      throw failure(.store(error))
    }
  }

  /// Warns (once) if the group or others may read the store, which holds the token.
  func warnIfStoreExposed() {
    if let warning = store.exposureWarning() { warnings.add(warning) }
  }

  /// Feeds `input` to a pipeline and waits until all its work is done. The
  /// pipeline decides whether the input is valid: a failure is an outcome.
  func run(
    _ input: SyncViewModel.Input, registration: Registration = Registration(),
    syncsChanges: Bool = true
  ) throws {
    // No read of the store here: the step that changes it reads it, under its lock.
    warnIfStoreExposed()
    // Before libcurl can start a thread: each one made later blocks them too.
    takeInterrupts()
    let environment = try environment()
    let viewModel = SyncViewModel(
      environment: environment, registration: registration, syncsChanges: syncsChanges)
    let output = viewModel.transform(input)
    let lastRead = lastRead
    let reads = output.state.subscribe(onNext: { state in lastRead.withLock { $0 = state } })
    defer { reads.dispose() }
    try finish(output.outcomes)
  }

  /// Reads `outcomes` to the end, printing them as they come; then, with
  /// `--json`, prints the document, and throws the failure they come to, if any.
  func finish(_ outcomes: Observable<Outcome>) throws {
    let printer = OutcomePrinter(.command, options: options, mask: mask, output: output)
    // Every wait ends by the deadline; this is a last resort.
    let limit = (deadline.map(Self.timeLeft(until:)) ?? options.timeout) + Self.grace
    let all: [Outcome]
    let outcomesSoFar = outcomesSoFar
    do {
      let printed = outcomes.do(onNext: { outcome in
        printer.print(outcome)
        outcomesSoFar.withLock { $0.append(outcome) }
      })
      if let runLoop {
        all = try printed.toBlocking(timeout: limit, on: runLoop).toArray()
      } else {
        all = try printed.toBlocking(timeout: limit).toArray()
      }
    } catch {
      lastWord.lock()
      throw fail(
        "\(command) did not finish: \(error)",
        hint: "Run 'tpns status' to see what is pending, then run the command again.",
        code: ExitStatus.temporary)
    }
    lastWord.lock()
    warnOfRefused(all)
    let state = options.json ? documentState() : nil
    if let failure = failure(of: all, state: state) { throw failure }
    if options.json { Console.line(document(all, state: state).rendered) }
  }

  /// Warns of each UID found already stored (`add`, `import`) that the
  /// server in use refused as not activated: "already in the list" alone
  /// would read as if all were well. One refused again by this command's
  /// request is named by its error already.
  private func warnOfRefused(_ outcomes: [Outcome]) {
    var present: [String] = []
    var named: Set<String> = []
    for outcome in outcomes {
      switch outcome {
      case .alreadyPresent(let uid): present.append(uid.rawValue)
      case .failed(.notActivated(let uids, _)): named.formUnion(uids.map(\.rawValue))
      default: break
      }
    }
    guard !present.isEmpty, let state = lastRead.value ?? (try? store.load()) else { return }
    let refused = Set(state.difference(at: options.serverKey).notActivated).subtracting(named)
    for uid in present where refused.contains(uid) { warnings.add(Warnings.notActivated(uid)) }
  }

  /// The failure `outcomes` come to, or nil if none failed: the first
  /// failure's exit status and next step, its line last after the later
  /// ones'. With `--json`, it carries the document (`state`: the store for it).
  func failure(of outcomes: [Outcome], state: StoreContents?) -> CommandFailure? {
    let failures = outcomes.compactMap { outcome -> PipelineFailure? in
      if case .failed(let failure) = outcome { return failure }
      return nil
    }
    guard let first = failures.first else { return nil }
    let (code, hint) = ExitStatus.of(first)
    let lines = (failures.dropFirst() + [first]).map { output.shown(mask($0.description)) }
    return CommandFailure(
      lines.joined(separator: "\nError: "), hint: hint.map(output.shown), exitCode: code,
      output: options.json
        ? document(
          outcomes, errors: failures.map { mask($0.description) }, code: code, hint: hint,
          state: state
        ).rendered + "\n" : nil)
  }

  /// The failure for a pipeline failure found before the pipeline ran; with
  /// `--json`, it carries its document, so that a script always gets one.
  func failure(_ failure: PipelineFailure) -> CommandFailure {
    let (code, hint) = ExitStatus.of(failure)
    return fail(failure.description, hint: hint, code: code, outcomes: [.failed(failure)])
  }

  /// The failure `message` (with `hint`, ending with `code`); with `--json`,
  /// it carries its document. On stderr, both are one line each (control
  /// characters escaped: they may quote a file name or a UID as typed).
  func fail(
    _ message: String, hint: String?, code: ExitCode, outcomes: [Outcome]? = nil
  ) -> CommandFailure {
    // The store first: the mask learns its tokens before the message is masked.
    let state = options.json ? documentState() : nil
    let message = mask(message)
    var json: String?
    if options.json {
      let formatting = OutcomeFormatting(options: options, mask: mask)
      let events =
        outcomes?.map(formatting.json)
        ?? [.object([("event", .string("failed")), ("error", .string(message))])]
      json =
        document(events: events, errors: [message], code: code, hint: hint, state: state)
        .rendered + "\n"
    }
    return CommandFailure(
      output.shown(message), hint: hint.map(output.shown), exitCode: code, output: json)
  }

  /// The store for a `--json` document: as the command or the pipeline
  /// last read it, else as it is now (nil if it cannot be read). The mask
  /// learns the tokens in it.
  private func documentState() -> StoreContents? {
    let state = lastRead.value ?? (try? store.load())
    if let state { mask.learn(from: state) }
    return state
  }

  /// The `--json` document of a command that went through the pipeline;
  /// `state` is the store as it was last read (``documentState()``).
  func document(
    _ outcomes: [Outcome], errors: [String] = [], code: ExitCode = .success, hint: String? = nil,
    state: StoreContents?
  ) -> OrderedJSON {
    let formatting = OutcomeFormatting(options: options, mask: mask)
    return document(
      events: outcomes.map(formatting.json), errors: errors, code: code, hint: hint, state: state)
  }

  func document(
    events: [OrderedJSON], errors: [String], code: ExitCode, hint: String?, state: StoreContents?
  ) -> OrderedJSON {
    // A store that could not be read says nothing of what is stored or
    // pending: those facts are null, never a reassuring `false` or `[]`.
    let difference = state?.difference(at: options.serverKey)
    return .object([
      ("command", .string(command)),
      ("ok", .bool(errors.isEmpty)),
      ("exit_code", .number(Int(code.rawValue))),
      ("server", .string(options.shownServer)),
      ("store", .string(options.storePath)),
      ("outcomes", .array(events)),
      ("errors", .array(errors.map(OrderedJSON.string))),
      ("warnings", .array(warnings.all.map(OrderedJSON.string))),
      ("hint", hint.map(OrderedJSON.string) ?? .null),
      ("uids", state.map { .array($0.uids.map(OrderedJSON.string)) } ?? .null),
      ("registered", difference.map { .bool($0.isRegistered) } ?? .null),
      ("pending", difference.map { .bool($0.isPending) } ?? .null),
      (
        "not_activated", difference.map { .array($0.notActivated.map(OrderedJSON.string)) } ?? .null
      ),
      (
        "needs_registration",
        difference.map { .bool($0.desired == nil || $0.needsRegistration) } ?? .null
      ),
      ("next", difference?.nextCommand.map(OrderedJSON.string) ?? .null),
    ])
  }
}
