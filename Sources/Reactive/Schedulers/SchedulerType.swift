/// Runs actions, now or after a delay on its clock, in some execution context. Time-based
/// operators (`debounce`, `retry`) read only this clock, so that a
/// ``VirtualTimeScheduler`` can drive them in tests.
public protocol SchedulerType: Sendable {
  /// The scheduler's clock: the time elapsed since its origin.
  var now: Duration { get }

  /// Schedules `action` to run as soon as the scheduler allows; disposing the
  /// result before it runs cancels it.
  @discardableResult
  func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable

  /// Schedules `action` to run once `delay` has passed on this clock;
  /// disposing the result before it runs cancels it.
  @discardableResult
  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable
}

extension SchedulerType {
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    schedule(after: .zero, action)
  }
}
