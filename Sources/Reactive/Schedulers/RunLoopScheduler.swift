import Locking

/// A scheduler whose actions run on the thread that drives it with
/// ``run(until:timeout:)``, in the order they are due (RxSwift's
/// `CurrentThreadScheduler`, with time): for a one-shot command, whose main
/// thread would otherwise only wait, so that no thread is started for work
/// that runs one step at a time. Actions scheduled from other threads wake it.
///
///     let loop = RunLoopScheduler()
///     let done = outcomes.toBlocking(timeout: .seconds(30), on: loop).toArray()
public final class RunLoopScheduler: SchedulerType, @unchecked Sendable {
  // @unchecked: `pending` and `sequence` are only touched under `condition`.
  private struct Pending {
    var due: Duration
    var sequence: Int
    var action: @Sendable () -> Void
    var cancelled: BooleanDisposable
  }

  private let condition = Condition()
  private var pending: [Pending] = []
  private var sequence = 0
  private let origin = ContinuousClock.now

  public init() {}

  public var now: Duration { ContinuousClock.now - origin }

  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    enqueue(action, due: now)
  }

  @discardableResult
  public func schedule(
    after delay: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    enqueue(action, due: now + max(delay, .zero))
  }

  private func enqueue(_ action: @escaping @Sendable () -> Void, due: Duration)
    -> any Disposable
  {
    let cancelled = BooleanDisposable()
    condition.withLock {
      sequence += 1
      pending.append(Pending(due: due, sequence: sequence, action: action, cancelled: cancelled))
    }
    condition.broadcast()
    return cancelled
  }

  /// Wakes ``run(until:timeout:)`` to check its condition again.
  public func wake() {
    condition.broadcast()
  }

  /// Runs due actions on this thread, waiting for more, until `isDone` is
  /// true (checked after each action and each wake) or `timeout` has passed
  /// (nil: no limit). Returns whether `isDone` became true.
  public func run(until isDone: () -> Bool, timeout: Duration?) -> Bool {
    let limit = timeout.map { now + $0 }
    while true {
      if isDone() { return true }
      let next: Pending? = condition.withLock {
        let time = now
        if let index = nextDueIndex(at: time) { return pending.remove(at: index) }
        if let limit, time >= limit { return nil }
        // Sleep until the next action is due, the limit, or a wake.
        let soonest = pending.map(\.due).min()
        let until = [soonest, limit].compactMap { $0 }.min()
        condition.wait(forNanoseconds: until.map { Self.nanoseconds($0 - time) })
        return nil
      }
      if let next {
        if !next.cancelled.isDisposed { next.action() }
      } else if let limit, now >= limit {
        return isDone()
      }
    }
  }

  /// The first action due at `time`, earliest first, then in scheduling order.
  private func nextDueIndex(at time: Duration) -> Int? {
    var best: Int?
    for (index, item) in pending.enumerated() where item.due <= time {
      if let current = best {
        let other = pending[current]
        if (item.due, item.sequence) < (other.due, other.sequence) { best = index }
      } else {
        best = index
      }
    }
    return best
  }

  private static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole + attoseconds / 1_000_000_000
  }
}
