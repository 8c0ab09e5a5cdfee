import Dispatch
import Locking
import Reactive
import TPNSProtocol

/// What the pipeline reads and writes the store with (isowords-style: a
/// struct of closures, with a live value over ``StateStore``).
public struct StoreClient: Sendable {
  /// Reads the stored state.
  public var load: @Sendable () throws -> StoreState
  /// Changes the stored state under the store's lock; returns the new state.
  public var update: @Sendable ((inout StoreState) throws -> Void) throws -> StoreState
  /// Takes the store's send lock (one request in flight per store, across
  /// processes) until the result is disposed.
  public var lockForSending: @Sendable () throws -> any Disposable

  /// A client with the given closures (no send lock unless given).
  public init(
    load: @escaping @Sendable () throws -> StoreState,
    update: @escaping @Sendable ((inout StoreState) throws -> Void) throws -> StoreState,
    lockForSending: @escaping @Sendable () throws -> any Disposable = { Disposables.create() }
  ) {
    self.load = load
    self.update = update
    self.lockForSending = lockForSending
  }

  /// The property-list store at `store.path`.
  public static func live(_ store: StateStore) -> StoreClient {
    StoreClient(
      load: { try store.load() },
      update: { change in
        try store.update { state -> StoreState in
          try change(&state)
          return state
        }
      },
      lockForSending: { try store.lockForSending() })
  }

  /// A store in memory, for tests.
  public static func inMemory(_ state: LockedState<StoreState>) -> StoreClient {
    StoreClient(
      load: { state.value },
      update: { change in
        try state.withLock { stored in
          var copy = stored
          try change(&copy)
          stored = copy
          return copy
        }
      })
  }
}

/// How the pipeline reaches the server: one attempt per subscription.
public struct ServerClient: Sendable {
  /// Sends a request once, within the given time if any: the 2xx response,
  /// or a ``RequestFailure``.
  public var send: @Sendable (TPNSRequest, _ timeout: Duration?) -> Observable<HTTPResponse>
  /// The server's `/tpns` URL, recorded in the store with the registration.
  public var server: String

  /// A client with the given closure.
  public init(
    server: String,
    send: @escaping @Sendable (TPNSRequest, _ timeout: Duration?) -> Observable<HTTPResponse>
  ) {
    self.server = server
    self.send = send
  }

  /// Sends through the client `makeClient` makes on a worker queue (libcurl
  /// blocks), delivering the result on `scheduler`; disposing cancels the
  /// request in flight. The client (and so libcurl and its TLS library) is
  /// only made for the first request: a command that sends nothing
  /// (`--no-sync`, a list waiting for registration) never pays for it.
  public static func live(
    server: String, scheduler: some ImmediateSchedulerType,
    makeClient: @escaping @Sendable () throws -> TPNSClient
  ) -> ServerClient {
    let worker = DispatchQueue(label: "tpns.transport")
    let made = LockedState<TPNSClient?>(nil)
    let client = { @Sendable () throws -> TPNSClient in
      try made.withLock { made in
        if let made { return made }
        do {
          let client = try makeClient()
          made = client
          return client
        } catch let error as TransportError {
          throw RequestFailure.transport(error)
        }
      }
    }
    return ServerClient(server: server) { request, timeout in
      Observable<HTTPResponse>.create { observer in
        let cancelled = BooleanDisposable()
        worker.async {
          guard !cancelled.isDisposed else { return }
          do {
            observer.onNext(
              try client().send(request, timeout: timeout) { cancelled.isDisposed })
            observer.onCompleted()
          } catch {
            observer.onError(error)
          }
        }
        return cancelled
      }
      .observe(on: scheduler)
    }
  }
}

/// Everything the pipeline depends on.
public struct PipelineEnvironment: Sendable {
  /// The store.
  public var store: StoreClient
  /// The server.
  public var server: ServerClient
  /// Where retries wait (a virtual-time scheduler in tests).
  public var scheduler: any SchedulerType
  /// When to retry.
  public var retryPolicy: RetryPolicy
  /// When the whole command's time runs out, on the scheduler's clock
  /// (`--timeout` of a one-shot command): no request, retry or wait goes past
  /// it, however many requests a reconciliation takes. `nil` for none (`watch`).
  public var deadline: Duration?

  /// An environment.
  public init(
    store: StoreClient, server: ServerClient, scheduler: any SchedulerType,
    retryPolicy: RetryPolicy = RetryPolicy(), deadline: Duration? = nil
  ) {
    self.store = store
    self.server = server
    self.scheduler = scheduler
    self.retryPolicy = retryPolicy
    self.deadline = deadline
  }
}
