import Locking
import Reactive

/// An observable that sends recorded events at set virtual times and records
/// its subscriptions.
///
/// A *hot* one sends each event at its absolute time to whoever is subscribed
/// then; a *cold* one sends the events to each subscriber, at times relative
/// to when it subscribed. Make them with ``TestScheduler/createHotObservable(_:)``
/// and ``TestScheduler/createColdObservable(_:)``.
public final class TestableObservable<Element: Sendable>: ObservableType {
  enum Kind {
    case hot
    case cold
  }

  private struct State {
    var observers: [(key: Int, observer: AnyObserver<Element>)] = []
    var subscriptions: [Subscription] = []
  }

  /// The events it sends, as given.
  public let recordedEvents: [Recorded<Event<Element>>]
  private let kind: Kind
  private let scheduler: TestScheduler
  private let state = LockedState(State())

  init(kind: Kind, events: [Recorded<Event<Element>>], scheduler: TestScheduler) {
    self.kind = kind
    recordedEvents = events
    self.scheduler = scheduler
    if kind == .hot {
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
    if kind == .cold {
      let start = scheduler.clock
      for recorded in recordedEvents {
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
