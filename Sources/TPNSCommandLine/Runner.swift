import ArgumentParsing
import Posix
import Reactive
import TPNSKit
import TPNSProtocol

/// Runs one command's inputs through the pipeline to the end, printing each
/// outcome as it comes, then the result: the View of a one-shot command.
struct Runner {
  let command: String
  let options: GlobalOptions
  /// The store; for a one-shot command, its lock waits end with the command's time budget.
  let store: StateStore
  /// Whether `--timeout` bounds the whole command (every one-shot command;
  /// not `watch`, whose every request has its own).
  let budgeted: Bool
  /// What a server said, with the tokens masked (unless `--show-token`).
  let mask: TokenMask
  /// Text for people: control characters escaped, tokens masked.
  let output: TextOutput
  /// The warnings so far: on stderr as they come, and in the `--json` document.
  let warnings: Warnings

  /// The runner of `command`; with `budgeted`, the command's time starts now.
  /// `streamWarning`, if given, also prints each warning as it comes (`watch
  /// --json`'s `warning` lines).
  init(
    command: String, options: GlobalOptions, budgeted: Bool = true,
    streamWarning: (@Sendable (String) -> Void)? = nil
  ) {
    self.command = command
    self.options = options
    self.budgeted = budgeted
    let store = StateStore(
      path: options.storePath, deadline: budgeted ? .now + options.timeout : nil)
    self.store = store
    mask = TokenMask(showsTokens: options.showToken) {
      (try? store.load()).map(TokenMask.tokens(in:)) ?? []
    }
    let output = TextOutput(mask: mask)
    self.output = output
    warnings = Warnings { message in
      output.error("Warning: \(message)")
      streamWarning?(message)
    }
  }

  /// The live environment: the plist store, libcurl (made at the first
  /// request), a serial queue for the pipeline. Fails (exit 66) if the
  /// `--cacert` file cannot be read, before anything is stored or sent.
  func environment() throws -> PipelineEnvironment {
    if let problem = options.caCertificateProblem() {
      throw fail(
        problem, hint: "Pass a readable PEM file of CA certificates with --cacert.",
        code: ExitStatus.noInput)
    }
    let scheduler = SerialDispatchQueueScheduler(label: "tpns.pipeline")
    let options = options
    let store = store
    let formatting = OutcomeFormatting(options: options, mask: mask)
    let output = output
    let log: (@Sendable (TPNSClient.Exchange) -> Void)? =
      options.verbose ? { @Sendable exchange in output.errors(formatting.lines(exchange)) } : nil
    // The store records the server without its credentials; requests go to it as given.
    let live = ServerClient.live(server: options.serverKey, scheduler: scheduler) {
      let transport = try CurlTransport(
        options: TransportOptions(
          timeout: options.timeout, caCertificatePath: options.caCertificate))
      return TPNSClient(
        server: options.server, method: options.method, transport: transport, log: log)
    }
    // A token about to cross the network in clear is warned about, once.
    let cleartext =
      options.serverURL.isCleartextOverNetwork
      ? Warnings.cleartext(to: options.serverURL, environment: ProcessEnvironment.current) : nil
    let warnings = warnings
    let server = ServerClient(server: live.server) { request, timeout in
      if let cleartext, request.carriesToken { warnings.add(cleartext) }
      return live.send(request, timeout)
    }
    return PipelineEnvironment(
      store: .live(store), server: server, scheduler: scheduler,
      retryPolicy: RetryPolicy(timeLimit: options.timeout),
      deadline: budgeted ? scheduler.now + options.timeout : nil)
  }

  /// The stored state, for the commands that only read it (`list`, `status`,
  /// `register`'s defaults).
  func loadStore() throws -> StoreState {
    do {
      return try store.load()
    } catch {
      throw failure(.store(error))
    }
  }

  /// Feeds `input` to a pipeline and waits until all its work is done.
  func run(
    _ input: SyncViewModel.Input, registration: Registration = Registration(),
    syncsChanges: Bool = true
  ) throws {
    // No read of the store here: the step that changes it reads it, under its lock.
    let environment = try environment()
    let viewModel = SyncViewModel(
      environment: environment, registration: registration, syncsChanges: syncsChanges)
    try finish(viewModel.transform(input).outcomes)
  }

  /// Reads `outcomes` to the end, printing them; then prints the result and
  /// throws the exit status of the first failure, if any.
  func finish(_ outcomes: Observable<Outcome>) throws {
    let formatting = OutcomeFormatting(options: options, mask: mask)
    let output = output
    let live = outcomes.do(onNext: { outcome in
      guard !options.json, !options.quiet, let line = formatting.line(outcome) else { return }
      if case .retrying = outcome { output.error(line) } else { output.line(line) }
    })
    // Every wait ends with the command's budget; this is a last resort.
    let limit = options.timeout * 2 + .seconds(30)
    let all: [Outcome]
    do {
      all = try live.toBlocking(timeout: limit).toArray()
    } catch {
      throw fail(
        "\(command) did not finish: \(error)",
        hint: "Run 'tpns status' to see what is pending, then run the command again.",
        code: ExitStatus.temporary)
    }
    let failures = all.compactMap { outcome -> PipelineFailure? in
      if case .failed(let failure) = outcome { return failure }
      return nil
    }
    guard let first = failures.first else {
      if options.json { Console.line(document(all, state: currentState()).rendered) }
      return
    }
    // The store is read once more for the document; the mask learns its tokens from it.
    let state = options.json ? currentState() : nil
    for other in failures.dropFirst() { output.error("Error: \(mask(other.description))") }
    let (code, hint) = ExitStatus.of(first)
    throw CommandFailure(
      output.shown(mask(first.description)), hint: hint.map(output.shown), exitCode: code,
      output: options.json
        ? document(
          all, errors: failures.map { mask($0.description) }, code: code, hint: hint, state: state
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
    let state = options.json ? currentState() : nil
    let message = mask(message)
    let document =
      options.json ? failureDocument(message, hint: hint, code: code, outcomes, state: state) : nil
    return CommandFailure(
      output.shown(message), hint: hint.map(output.shown), exitCode: code, output: document)
  }

  private func failureDocument(
    _ message: String, hint: String?, code: ExitCode, _ outcomes: [Outcome]?, state: StoreState?
  ) -> String {
    let formatting = OutcomeFormatting(options: options, mask: mask)
    let events =
      outcomes.map { $0.map(formatting.json) }
      ?? [.object([("event", .string("failed")), ("error", .string(message))])]
    return document(events: events, errors: [message], code: code, hint: hint, state: state)
      .rendered + "\n"
  }

  /// The store as it is now, for a `--json` document (nil if it cannot be
  /// read); the mask learns the tokens in it, so that it is read once.
  private func currentState() -> StoreState? {
    let state = try? store.load()
    if let state { mask.learn(from: state) }
    return state
  }

  /// The `--json` document of a command that went through the pipeline;
  /// `state` is the store as it is now (``currentState()``).
  func document(
    _ outcomes: [Outcome], errors: [String] = [], code: ExitCode = .success, hint: String? = nil,
    state: StoreState?
  ) -> OrderedJSON {
    let formatting = OutcomeFormatting(options: options, mask: mask)
    return document(
      events: outcomes.map(formatting.json), errors: errors, code: code, hint: hint, state: state)
  }

  private func document(
    events: [OrderedJSON], errors: [String], code: ExitCode, hint: String?, state: StoreState?
  ) -> OrderedJSON {
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
      ("uids", .array((state?.uids ?? []).map(OrderedJSON.string))),
      ("registered", .bool(difference?.isRegistered ?? false)),
      ("pending", .bool(difference?.isPending ?? false)),
      ("next", difference?.nextCommand.map(OrderedJSON.string) ?? .null),
    ])
  }
}
