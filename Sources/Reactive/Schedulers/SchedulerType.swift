/// Runs actions, now or soon, in some execution context.
public protocol ImmediateSchedulerType: Sendable {
  /// Schedules `action` to run as soon as the scheduler allows; disposing the
  /// result before it runs cancels it.
  @discardableResult
  func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable
}

/// A scheduler with a clock, the only one time-based operators (`debounce`,
/// `retry`) read, so that a ``VirtualTimeScheduler`` can drive them in tests.
public protocol SchedulerType: ImmediateSchedulerType {
  /// The scheduler's clock: the time elapsed since its origin.
  var now: Duration { get }

  /// Schedules `action` to run once `delay` has passed on this clock;
  /// disposing the result before it runs cancels it.
  @discardableResult
  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable
}
