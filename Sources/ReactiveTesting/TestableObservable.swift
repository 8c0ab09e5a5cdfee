import Locking
import Reactive

/// An observable that sends recorded events at set virtual times, hot or cold (see
/// ``TestScheduler``), and records its subscriptions.
public final class TestableObservable<Element: Sendable>: ObservableType {
  private struct State {
    var observers: [(key: Int, observer: AnyObserver<Element>)] = []
    var subscriptions: [Subscription] = []
  }

  private let events: [Recorded<Event<Element>>]
  private let isHot: Bool
  private let scheduler: TestScheduler
  private let state = LockedState(State())

  init(isHot: Bool, events: [Recorded<Event<Element>>], scheduler: TestScheduler) {
    self.isHot = isHot
    self.events = events
    self.scheduler = scheduler
    if isHot {
      for recorded in events {
        scheduler.schedule(at: recorded.time) { [state] in
          for (_, observer) in state.value.observers { observer.on(recorded.value) }
        }
      }
    }
  }

  /// Every subscription so far, in order: when it started and when it was disposed.
  public var subscriptions: [Subscription] {
    state.value.subscriptions
  }

  public func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    let scheduler = scheduler
    let key = state.withLock { state in
      state.subscriptions.append(Subscription(scheduler.clock))
      state.observers.append((state.subscriptions.count - 1, observer))
      return state.subscriptions.count - 1
    }
    let pending = CompositeDisposable()
    if !isHot {
      let start = scheduler.clock
      for recorded in events {
        pending.insert(
          scheduler.schedule(at: start + recorded.time) { observer.on(recorded.value) })
      }
    }
    return Disposables.create { [state] in
      pending.dispose()
      state.withLock { state in
        state.observers.removeAll { $0.key == key }
        state.subscriptions[key] = Subscription(
          state.subscriptions[key].subscribe, scheduler.clock)
      }
    }
  }
}
