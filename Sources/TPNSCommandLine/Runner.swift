import ArgumentParsing
import Glibc
import Locking
import Posix
import Reactive
import TPNSKit
import TPNSProtocol

/// The View of a one-shot command: its inputs through the pipeline, each
/// outcome printed as it comes, then the result.
struct Runner {
  let command: String
  let options: GlobalOptions
  /// When `--timeout` runs out, counted from the runner's making: every
  /// limit of a one-shot command; nil for `watch`, whose requests each have their own.
  let deadline: ContinuousClock.Instant?
  /// The store; for a one-shot command, no lock wait goes past the ``deadline``.
  let store: Store
  /// The store as the command or the pipeline last read or wrote it: what
  /// the `--json` document reports, instead of reading the store again.
  private let lastRead = LockedState<StoreContents?>(nil)
  /// Whether the `--cacert` file passed ``checkCACertificate()``: `sync` checks it
  /// before it looks for a token, and ``environment()`` again.
  private let caCertificateChecked = LockedState(false)
  let mask: TokenMask
  let output: TextOutput
  /// The warnings so far: on stderr as they come, and in the `--json` document.
  let warnings: Warnings
  /// A one-shot command's pipeline (libcurl too) runs on the main thread
  /// while ``finish(_:)`` waits; nil for `watch`, whose pipeline runs on a queue.
  let runLoop: RunLoopScheduler?
  /// The outcomes printed so far: what an interrupted command reports.
  let outcomesSoFar = LockedState<[Outcome]>([])
  /// Held, never released, by whoever prints the result: the command at
  /// its end or an interrupt (``takeInterrupts()``), never both.
  let lastWord = Lock()

  var formatting: OutcomeFormatting { OutcomeFormatting(options: options, mask: mask) }

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
  /// request); fails first if the `--cacert` file cannot be used.
  func environment() throws -> PipelineEnvironment {
    try checkCACertificate()
    let options = options
    let store = store
    let formatting = formatting
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
    let scheduler: any SchedulerType =
      if let runLoop { runLoop } else { SerialDispatchQueueScheduler(label: "tpns.pipeline") }
    let live = ServerClient.live(
      url: options.serverKey, scheduler: scheduler, inline: runLoop != nil, makeClient: makeClient)
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
    guard let path = options.caCertificate, !caCertificateChecked.value else { return }
    let hint = "Pass a readable PEM file of CA certificates with --cacert or TPNS_CACERT."
    func unreadable(_ reason: String) -> CommandFailure {
      fail(
        "cannot read the CA certificate file \(path): \(reason)", hint: hint,
        code: ExitStatus.noInput)
    }
    // Not blocking: a FIFO is refused below, not waited on.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw unreadable(String(cString: strerror(errno))) }
    defer { close(descriptor) }
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
      throw unreadable("it is a directory")
    }
    // libcurl opens the file again at each connection: a pipe would be empty by then.
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw unreadable("it is not a regular file (libcurl reads it again for each connection)")
    }
    // A bundle's first certificate comes early; the rest is libcurl's to read.
    let bytes: [UInt8]
    do {
      bytes = try FileDescriptor.readAll(descriptor, limit: 1 << 20)
    } catch {
      throw unreadable(String(cString: strerror(error.code)))
    }
    guard String(decoding: bytes, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
      throw fail(
        "the CA certificate file \(path) is not a PEM file: it holds no "
          + "'-----BEGIN CERTIFICATE-----' line", hint: hint, code: ExitStatus.dataError)
    }
    caCertificateChecked.withLock { $0 = true }
  }

  private static func timeLeft(until deadline: ContinuousClock.Instant) -> Duration {
    max(deadline - .now, .zero)
  }

  /// The stored state, for `list`, `status` and `register`'s defaults.
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

  /// Warns (once) if others may read the store, which holds the token.
  func warnIfStoreExposed() {
    if let warning = store.exposureWarning() { warnings.add(warning) }
  }

  /// Feeds `input` to a pipeline (which decides whether it is valid: a
  /// failure is an outcome) and waits until all its work is done.
  func run(
    _ input: SyncViewModel.Input, registration: Registration = Registration(),
    syncsChanges: Bool = true
  ) throws {
    // No read of the store here: the step that changes it reads it, under its lock.
    warnIfStoreExposed()
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

  /// Sends a device's `request` (`event`, `device`), which stores nothing:
  /// the server's answer is the outcome.
  func send(_ request: TPNSRequest, idempotent: Bool = true) throws {
    takeInterrupts(storesNothing: true)
    let name = request.name
    let outcomes = try environment().request(request, idempotent: idempotent) {
      .sent(name, response: $0.body)
    }
    try finish(outcomes.catchingFailures(name))
  }

  /// Reads `outcomes` to the end, printing them as they come, then the
  /// `--json` document; throws the failure they come to, if any.
  func finish(_ outcomes: Observable<Outcome>) throws {
    let printer = OutcomePrinter(view: .command, formatting: formatting, output: output)
    // Every wait ends by the deadline; this is a last resort, with time for
    // what no wait bounds (a write's `fsync`, a transfer's cancellation).
    let limit = (deadline.map(Self.timeLeft(until:)) ?? options.timeout) + .seconds(30)
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
    if options.json {
      Console.line(document(events: all.map(formatting.json), state: state).rendered)
    }
  }

  /// Warns of each UID already stored (`add`, `import`) that the server
  /// refused as not activated ("already in the list" alone reads as if all
  /// were well), unless this command's own request's error names it.
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

  /// The failure `outcomes` come to, if any: the first one's exit status
  /// and hint, its line last; with `--json`, the document (of `state`).
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
          events: outcomes.map(formatting.json), errors: failures.map { mask($0.description) },
          code: code, hint: hint, state: state
        ).rendered + "\n" : nil)
  }

  /// The failure for one found before the pipeline ran, with its `--json` document.
  func failure(_ failure: PipelineFailure) -> CommandFailure {
    let (code, hint) = ExitStatus.of(failure)
    return fail(failure.description, hint: hint, code: code, outcomes: [.failed(failure)])
  }

  /// The failure `message`, with its `--json` document; on stderr, message
  /// and hint are a line each (escaped: they may quote a file name or UID as typed).
  func fail(
    _ message: String, hint: String?, code: ExitCode, outcomes: [Outcome]? = nil
  ) -> CommandFailure {
    // The store first: the mask learns its tokens before the message is masked.
    let state = options.json ? documentState() : nil
    let message = mask(message).escapingControlCharacters
    var json: String?
    if options.json {
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

  /// The store for a `--json` document (``lastRead``, else as it is now);
  /// the mask learns its tokens.
  private func documentState() -> StoreContents? {
    let state = lastRead.value ?? (try? store.load())
    if let state { mask.learn(from: state) }
    return state
  }

  /// The `--json` document; `state` is the store as last read (``documentState()``).
  func document(
    events: [OrderedJSON], errors: [String] = [], code: ExitCode = .success, hint: String? = nil,
    state: StoreContents?
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
      ("errors", .array(errors.map { .string($0.escapingControlCharacters) })),
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
