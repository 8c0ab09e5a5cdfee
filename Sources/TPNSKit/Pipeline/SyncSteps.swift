import Locking
import Reactive
import TPNSProtocol

/// The steps of the pipeline, which ``SyncViewModel`` wires to its inputs: each
/// changes the desired state in the store, then asks for a reconciliation (under the
/// store's send lock). Every failure becomes an outcome.
struct SyncSteps: Sendable {
  /// Steps in one reconciliation at most: more means the store keeps changing under
  /// it (the next trigger picks that up).
  static let maximumSteps = 8

  let environment: PipelineEnvironment
  let registration: Registration
  /// The store as a step last read or wrote it.
  let states: PublishSubject<StoreContents>
  let syncsChanges: Bool
  /// What the triggers since the last reconciliation started asked for.
  let pendingDemand = LockedState(Demand())
  /// Each registration the `token` input stored: the registration of an older one
  /// is abandoned (the quickstart's `flatMapLatest`).
  let storedRegistrations = PublishSubject<PhoneRegistration>()

  var store: StoreClient { environment.store }
  /// The server in use, as the store records it.
  var server: String { environment.server.url }

  /// Asks for a reconciliation after a change (with what `demand` asks
  /// for), unless changes are only stored (`--no-sync`).
  func changed(_ demand: Demand = Demand(), on triggers: PublishSubject<Void>)
    -> Observable<Outcome>
  {
    syncsChanges ? trigger(demand, on: triggers) : .empty()
  }

  /// Adds `demand` to what the next reconciliation does, and asks for one; no outcome of its own.
  func trigger(_ demand: Demand, on triggers: PublishSubject<Void>) -> Observable<Outcome> {
    Observable.deferred {
      self.pendingDemand.withLock { $0 = $0.merged(with: demand) }
      triggers.onNext(())
      return .empty()
    }
  }

  /// Reads the store and publishes what it read.
  func load() throws -> StoreContents {
    let state = try store.load()
    states.onNext(state)
    return state
  }

  /// Changes the store and publishes the new state.
  func update(_ change: (inout StoreContents) throws -> Void) throws {
    states.onNext(try store.update(change))
  }

  /// Sends `command` with retries (none after `abandon` sends); a final failure is a
  /// ``PipelineFailure`` naming the command.
  func request(
    _ command: TPNSRequest, abandon: Observable<Void> = .never(),
    onSuccess: @escaping @Sendable (HTTPResponse) throws -> Outcome
  ) -> Observable<Outcome> {
    environment.request(command, abandon: abandon, onSuccess: onSuccess).catch { error in
      guard let failure = error as? RequestFailure else { throw error }
      throw PipelineFailure.request(command.name, failure)
    }
  }
}
