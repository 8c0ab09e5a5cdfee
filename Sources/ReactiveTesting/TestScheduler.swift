import Locking
import Reactive

/// A virtual-time scheduler for marble tests, shaped like RxTest's: it makes
/// hot and cold test observables and recording observers, and runs a whole
/// scenario in one call, without waiting.
///
///     let scheduler = TestScheduler(initialClock: 0)
///     let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
///     let res = scheduler.start { xs.map { $0 * 2 } }
///     #expect(res.events == [.next(210, 4), .completed(300)])
///     #expect(xs.subscriptions == [Subscription(200, 300)])
public final class TestScheduler: VirtualTimeScheduler, @unchecked Sendable {
  /// An observable that sends `events` at their absolute times to whoever is
  /// subscribed at that moment.
  public func createHotObservable<Element>(
    _ events: [Recorded<Event<Element>>]
  ) -> TestableObservable<Element> {
    TestableObservable(isHot: true, events: events, scheduler: self)
  }

  /// An observable that sends `events` to each subscriber, at their times
  /// after it subscribed.
  public func createColdObservable<Element>(
    _ events: [Recorded<Event<Element>>]
  ) -> TestableObservable<Element> {
    TestableObservable(isHot: false, events: events, scheduler: self)
  }

  /// An observer that records what it receives with this scheduler's time.
  public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
    TestableObserver(scheduler: self)
  }

  /// Runs `action` at virtual time `time`.
  public func scheduleAt(_ time: TestTime, action: @escaping @Sendable () -> Void) {
    schedule(at: time, action)
  }

  /// Runs a scenario: calls `create` at `created`, subscribes a recording
  /// observer to it at `subscribed`, disposes that at `disposed`, and runs
  /// the clock until nothing is left to do.
  public func start<Source: ObservableType>(
    created: TestTime = 100, subscribed: TestTime = 200, disposed: TestTime = 1000,
    _ create: @escaping @Sendable () -> Source
  ) -> TestableObserver<Source.Element> {
    let observer = createObserver(Source.Element.self)
    let source = LockedState<Source?>(nil)
    let subscription = SingleAssignmentDisposable()
    scheduleAt(created) { source.withLock { $0 = create() } }
    scheduleAt(subscribed) {
      guard let made = source.value else { return }
      subscription.setDisposable(made.subscribe(observer))
    }
    scheduleAt(disposed) { subscription.dispose() }
    start()
    return observer
  }
}
