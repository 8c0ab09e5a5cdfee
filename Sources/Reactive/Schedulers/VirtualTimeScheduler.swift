import Locking

/// A scheduler whose clock, counted in ticks of `resolution`, only moves when
/// told to: actions run in the order of their due time (then of scheduling),
/// and time jumps from one to the next. Deterministic; the basis of `TestScheduler`.
///
///     let scheduler = VirtualTimeScheduler(initialClock: 0, resolution: .milliseconds(1))
///     scheduler.schedule(after: .milliseconds(5)) { print(scheduler.clock) }  // 5
///     scheduler.start()
open class VirtualTimeScheduler: SchedulerType, @unchecked Sendable {
  // @unchecked: all mutable state is guarded by `state`'s lock.

  private struct Item {
    let time: Int
    let action: @Sendable () -> Void
    let cancelled: BooleanDisposable
  }

  private struct State {
    var clock: Int
    var items: [Item] = []  // sorted by time, in scheduling order among equal times
    var isRunning = false
  }

  /// The scheduler time one tick stands for.
  public let resolution: Duration
  private let state: LockedState<State>

  /// A scheduler whose clock starts at `initialClock` ticks.
  public init(initialClock: Int = 0, resolution: Duration = .milliseconds(1)) {
    precondition(resolution > .zero, "the resolution must be positive")
    self.resolution = resolution
    state = LockedState(State(clock: initialClock))
  }

  /// The current time in ticks.
  public var clock: Int {
    state.withLock { $0.clock }
  }

  public var now: Duration {
    resolution * clock
  }

  /// The number of ticks `duration` spans, rounded up so that nothing runs early.
  public func ticks(_ duration: Duration) -> Int {
    guard duration > .zero else { return 0 }
    return Int((duration / resolution).rounded(.up))
  }

  @discardableResult
  public func schedule(
    after delay: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    schedule(at: clock + ticks(delay), action)
  }

  /// Schedules `action` at the absolute time `time` (in ticks); a time in the
  /// past runs at the current time.
  @discardableResult
  public func schedule(at time: Int, _ action: @escaping @Sendable () -> Void) -> any Disposable {
    let cancelled = BooleanDisposable()
    state.withLock { state in
      let item = Item(time: max(time, state.clock), action: action, cancelled: cancelled)
      // Before the first item due later: equal times keep FIFO order.
      let index = state.items.firstIndex { $0.time > item.time } ?? state.items.endIndex
      state.items.insert(item, at: index)
    }
    return cancelled
  }

  /// Runs every scheduled action, including those they schedule, until none
  /// is left or `stop()` is called.
  public func start() {
    run(until: nil)
  }

  /// Runs the actions due at or before `time`, then sets the clock to `time`.
  public func advance(to time: Int) {
    run(until: time)
    state.withLock { $0.clock = max($0.clock, time) }
  }

  /// Makes a running `start()` or `advance(to:)` return after the current action.
  public func stop() {
    state.withLock { $0.isRunning = false }
  }

  private func run(until limit: Int?) {
    state.withLock { $0.isRunning = true }
    while let item = nextItem(until: limit) {
      if !item.cancelled.isDisposed { item.action() }
    }
  }

  private func nextItem(until limit: Int?) -> Item? {
    state.withLock { state in
      // A cancelled action neither runs nor moves the clock.
      while let first = state.items.first, first.cancelled.isDisposed { state.items.removeFirst() }
      guard state.isRunning, let first = state.items.first, first.time <= limit ?? .max else {
        state.isRunning = false
        return nil
      }
      state.items.removeFirst()
      state.clock = max(state.clock, first.time)
      return first
    }
  }
}
