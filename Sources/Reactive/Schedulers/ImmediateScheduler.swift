/// Runs every action at once, on the calling thread.
///
///     numbers.subscribe(on: ImmediateScheduler.instance)
public struct ImmediateScheduler: ImmediateSchedulerType {
  /// The scheduler (it has no state).
  public static let instance = ImmediateScheduler()

  /// The scheduler.
  public init() {}

  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    action()
    return Disposables.create()
  }
}
