import Locking
import Reactive
import TPNSProtocol

/// What the pipeline reads and writes the store with: a struct of closures, over
/// ``Store``, in memory, or ``failing`` for a test whose store must not be touched.
///
///     PipelineEnvironment(store: .live(Store(path: path)), server: server, scheduler: s)
public struct StoreClient: Sendable {
  /// Reads the stored state.
  public var load: @Sendable () throws -> StoreContents
  /// Changes the stored state under the store's lock; returns the new state.
  public var update: @Sendable ((inout StoreContents) throws -> Void) throws -> StoreContents
  /// Takes the store's send lock (across processes) until the result is disposed.
  public var lockForSending: @Sendable () throws -> any Disposable

  /// A client with the given closures (no send lock unless given).
  public init(
    load: @escaping @Sendable () throws -> StoreContents,
    update: @escaping @Sendable ((inout StoreContents) throws -> Void) throws -> StoreContents,
    lockForSending: @escaping @Sendable () throws -> any Disposable = { Disposables.create() }
  ) {
    self.load = load
    self.update = update
    self.lockForSending = lockForSending
  }

  /// The property-list store at `store.path`.
  public static func live(_ store: Store) -> StoreClient {
    StoreClient(
      load: { try store.load() },
      update: { change in
        try store.update { state -> StoreContents in
          try change(&state)
          return state
        }
      },
      lockForSending: { try store.lockForSending() })
  }

  /// A store in memory, for tests.
  public static func inMemory(_ state: LockedState<StoreContents>) -> StoreClient {
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

  /// A store that must not be touched: every closure throws ``UnexpectedDependencyCall``,
  /// which the pipeline reports as a `failed` outcome.
  public static let failing = StoreClient(
    load: { throw UnexpectedDependencyCall("StoreClient.load") },
    update: { _ in throw UnexpectedDependencyCall("StoreClient.update") },
    lockForSending: { throw UnexpectedDependencyCall("StoreClient.lockForSending") })
}
