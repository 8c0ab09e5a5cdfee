import Dispatch

/// Runs actions one at a time, in the order scheduled, on a serial dispatch
/// queue: the scheduler of real runs. Its clock is the monotonic clock since
/// the scheduler's creation.
///
///     let scheduler = SerialDispatchQueueScheduler(label: "tpns.pipeline")
public final class SerialDispatchQueueScheduler: SchedulerType {
  /// The queue the actions run on.
  public let queue: DispatchQueue
  private let origin = ContinuousClock.now

  /// A scheduler on a new serial queue named `label`.
  public init(label: String) {
    queue = DispatchQueue(label: label)
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
    queue.async { if !cancelled.isDisposed { action() } }
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
  /// This duration in nanoseconds, negative as zero, saturating at `Int64.max`.
  var saturatingNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    guard seconds >= 0 else { return 0 }
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    return overflow || overflowAgain ? .max : total
  }

  /// This duration as a dispatch interval (negative becomes zero; huge saturates).
  var dispatchInterval: DispatchTimeInterval {
    let nanoseconds = saturatingNanoseconds
    return nanoseconds == .max ? .never : .nanoseconds(Int(nanoseconds))
  }
}
