import Locking
import Reactive

/// An observer that records every event it receives with the virtual time
/// of its scheduler.
///
///     let observer = scheduler.createObserver(Int.self)
///     #expect(observer.events == [.next(210, 2), .completed(300)])
public final class TestableObserver<Element: Sendable>: ObserverType {
  private let scheduler: TestScheduler
  private let recorded = LockedState<[Recorded<Event<Element>>]>([])

  init(scheduler: TestScheduler) {
    self.scheduler = scheduler
  }

  /// The events received so far, in order, with their times.
  public var events: [Recorded<Event<Element>>] {
    recorded.value
  }

  public func on(_ event: Event<Element>) {
    let time = scheduler.clock
    recorded.withLock { $0.append(Recorded(time: time, value: event)) }
  }
}
