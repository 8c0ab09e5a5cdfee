import ArgumentParsing
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

  /// The runner of `command`; with `budgeted`, the command's time starts now.
  init(command: String, options: GlobalOptions, budgeted: Bool = true) {
    self.command = command
    self.options = options
    self.budgeted = budgeted
    store = StateStore(
      path: options.storePath, deadline: budgeted ? .now + options.timeout : nil)
  }

  /// The live environment: the plist store, libcurl (made at the first
  /// request), a serial queue for the pipeline.
  func environment() -> PipelineEnvironment {
    let scheduler = SerialDispatchQueueScheduler(label: "tpns.pipeline")
    let options = options
    let store = store
    let server = ServerClient.live(server: options.server, scheduler: scheduler) {
      let transport = try CurlTransport(
        options: TransportOptions(
          timeout: options.timeout, caCertificatePath: options.caCertificate))
      return TPNSClient(server: options.server, method: options.method, transport: transport)
    }
    return PipelineEnvironment(
      store: .live(store), server: server, scheduler: scheduler,
      retryPolicy: RetryPolicy(timeLimit: options.timeout),
      deadline: budgeted ? scheduler.now + options.timeout : nil)
  }

  /// The stored state, for the commands that only read it (`list`, `status`).
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
    let environment = environment()
    let viewModel = SyncViewModel(
      environment: environment, registration: registration, syncsChanges: syncsChanges)
    try finish(viewModel.transform(input).outcomes)
  }

  /// Reads `outcomes` to the end, printing them; then prints the result and
  /// throws the exit status of the first failure, if any.
  func finish(_ outcomes: Observable<Outcome>) throws {
    let formatting = OutcomeFormatting(options: options)
    let live = outcomes.do(onNext: { outcome in
      guard !options.json, !options.quiet, let line = formatting.line(outcome) else { return }
      if case .retrying = outcome { Console.error(line) } else { Console.line(line) }
    })
    // Every wait ends with the command's budget; this is a last resort.
    let limit = options.timeout * 2 + .seconds(30)
    let all: [Outcome]
    do {
      all = try live.toBlocking(timeout: limit).toArray()
    } catch {
      throw CommandFailure("\(command) did not finish: \(error)", exitCode: ExitStatus.temporary)
    }
    let failures = all.compactMap { outcome -> PipelineFailure? in
      if case .failed(let failure) = outcome { return failure }
      return nil
    }
    if options.json {
      Console.line(document(all, failures: failures).rendered)
    }
    guard let first = failures.first else { return }
    for other in failures.dropFirst() { Console.error("Error: \(other)") }
    let (code, hint) = ExitStatus.of(first)
    throw CommandFailure(first.description, hint: hint, exitCode: code)
  }

  /// The failure for a pipeline failure found before the pipeline ran.
  /// With `--json`, the document (with the error) is printed here, so that a
  /// script always gets one.
  func failure(_ failure: PipelineFailure) -> CommandFailure {
    let (code, hint) = ExitStatus.of(failure)
    if options.json { Console.line(document([.failed(failure)], failures: [failure]).rendered) }
    return CommandFailure(failure.description, hint: hint, exitCode: code)
  }

  /// The `--json` document of a command that went through the pipeline.
  func document(_ outcomes: [Outcome], failures: [PipelineFailure]) -> JSONValue {
    let formatting = OutcomeFormatting(options: options)
    let state = try? store.load()
    let difference = state?.difference(at: options.server)
    let code = failures.first.map { ExitStatus.of($0).code.rawValue } ?? 0
    return .object([
      ("command", .string(command)),
      ("ok", .bool(failures.isEmpty)),
      ("exit_code", .number(Int(code))),
      ("server", .string(options.server)),
      ("store", .string(options.storePath)),
      ("outcomes", .array(outcomes.map(formatting.json))),
      ("errors", .array(failures.map { .string($0.description) })),
      ("uids", .array((state?.uids ?? []).map(JSONValue.string))),
      ("registered", .bool(difference?.isRegistered ?? false)),
      ("pending", .bool(difference?.isPending ?? false)),
      ("next", difference?.nextCommand.map(JSONValue.string) ?? .null),
    ])
  }
}
