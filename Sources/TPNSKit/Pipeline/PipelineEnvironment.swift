import Reactive
import TPNSProtocol

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
