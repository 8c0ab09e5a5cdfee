import Locking

/// A scheduler whose actions run, in the order they are due, on the thread
/// that drives it with ``run(until:timeout:)`` (RxSwift's `CurrentThreadScheduler`
/// with time): a one-shot command's main thread, which would otherwise only
/// wait. Actions scheduled from other threads wake it.
///
///     let loop = RunLoopScheduler()
///     let done = outcomes.toBlocking(timeout: .seconds(30), on: loop).toArray()
public final class RunLoopScheduler: SchedulerType, @unchecked Sendable {
  // @unchecked: `pending` is only touched under `condition`.
  private struct Pending {
    var due: Duration
    var action: @Sendable () -> Void
    var cancelled: BooleanDisposable
  }

  private let condition = Condition()
  private var pending: [Pending] = []  // in scheduling order
  private let origin = ContinuousClock.now

  public init() {}

  public var now: Duration { ContinuousClock.now - origin }

  @discardableResult
  public func schedule(
    after delay: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    let cancelled = BooleanDisposable()
    let due = now + max(delay, .zero)
    condition.withLock {
      pending.append(Pending(due: due, action: action, cancelled: cancelled))
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
        // The earliest action, the first scheduled of those due at once.
        let soonest = pending.indices.min { pending[$0].due < pending[$1].due }
        if let soonest, pending[soonest].due <= time { return pending.remove(at: soonest) }
        if let limit, time >= limit { return nil }
        // Sleep until the next action is due, the limit, or a wake.
        let until = [soonest.map { pending[$0].due }, limit].compactMap { $0 }.min()
        condition.wait(forNanoseconds: until.map { ($0 - time).saturatingNanoseconds })
        return nil
      }
      if let next {
        if !next.cancelled.isDisposed { next.action() }
      } else if let limit, now >= limit {
        return isDone()
      }
    }
  }
}
