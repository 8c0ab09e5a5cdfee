import Dispatch

/// Runs actions one at a time, in the order scheduled, on a serial dispatch
/// queue: the scheduler of real (non-test) runs.
///
/// Its clock is the monotonic clock, measured from the scheduler's creation.
///
///     let scheduler = SerialDispatchQueueScheduler(label: "tpns.pipeline")
public final class SerialDispatchQueueScheduler: SchedulerType {
  /// The queue the actions run on.
  public let queue: DispatchQueue
  private let origin = ContinuousClock.now

  /// A scheduler on a new serial queue named `label`.
  public init(label: String, qos: DispatchQoS = .default) {
    queue = DispatchQueue(label: label, qos: qos)
  }

  /// A scheduler on `queue`, which must be serial.
  public init(queue: DispatchQueue) {
    self.queue = queue
  }

  public var now: Duration {
    ContinuousClock.now - origin
  }

  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    let cancelled = BooleanDisposable()
    queue.async {
      if !cancelled.isDisposed { action() }
    }
    return cancelled
  }

  @discardableResult
  public func schedule(
    after delay: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    let cancelled = BooleanDisposable()
    queue.asyncAfter(deadline: .now() + delay.dispatchInterval) {
      if !cancelled.isDisposed { action() }
    }
    return cancelled
  }
}

extension Duration {
  /// This duration as a dispatch interval (negative becomes zero; huge saturates).
  var dispatchInterval: DispatchTimeInterval {
    let (seconds, attoseconds) = components
    guard seconds >= 0 else { return .nanoseconds(0) }
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return .never }
    let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    return overflowAgain || total > Int64(Int.max) ? .never : .nanoseconds(Int(total))
  }
}
