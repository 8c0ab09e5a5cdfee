import Locking

/// What ``PublishSubject`` and ``BehaviorSubject`` share: an observer and an observable
/// that sends each event to the observers subscribed at that moment (and, if it
/// replays, its latest element to each new one). Fed from any thread, it handles events
/// and (un)subscriptions one at a time, so an event an observer sends is delivered
/// after the current one.
public class Subject<Element: Sendable>: ObservableType, ObserverType, @unchecked Sendable {
  // @unchecked: the `drain*` properties are only touched by `handle`, which the
  // drain runs on one thread at a time; `summary` has its own lock.

  private enum Message {
    case event(Event<Element>)
    case subscribe(UInt64, AnyObserver<Element>)
    case unsubscribe(UInt64)
  }

  /// What readers outside the drain see: `latest` and `stopEvent` as soon as an
  /// event is sent (so `value()` is current once `onNext` returns).
  struct Summary {
    var latest: Element?
    var stopEvent: Event<Element>?
    var observerCount = 0
    var nextKey: UInt64 = 0
  }

  private let replaysLatest: Bool
  private var drainObservers: [(key: UInt64, observer: AnyObserver<Element>)] = []
  private var drainLatest: Element?
  private var drainStopEvent: Event<Element>?
  private var drain: SerialDrain<Message>!
  let summary: LockedState<Summary>

  init(replaying initial: Element?) {
    replaysLatest = initial != nil
    drainLatest = initial
    summary = LockedState(Summary(latest: initial))
    drain = SerialDrain { [unowned self] message in self.handle(message) }
  }

  /// Whether anyone is subscribed.
  public var hasObservers: Bool {
    summary.withLock { $0.observerCount > 0 }
  }

  public func on(_ event: Event<Element>) {
    // Queued under the summary lock, so the drain sees events in the order
    // the summary recorded them; handled after it is released.
    let becameDrainer = summary.withLock { summary -> Bool in
      guard summary.stopEvent == nil else { return false }
      if event.isStopEvent {
        summary.stopEvent = event
      } else if replaysLatest, case .next(let element) = event {
        summary.latest = element
      }
      return drain.enqueue(.event(event))
    }
    if becameDrainer { drain.drain() }
  }

  public func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    let key = summary.withLock { summary in
      defer { summary.nextKey += 1 }
      return summary.nextKey
    }
    // A sink per subscription: once disposed, queued events no longer reach it.
    let sink = ObserverSink(observer)
    drain.submit(.subscribe(key, sink.asObserver()))
    sink.setUpstream(Disposables.create { [self] in drain.submit(.unsubscribe(key)) })
    return sink
  }

  private func handle(_ message: Message) {
    switch message {
    case .event(let event):
      guard drainStopEvent == nil else { return }
      if case .next(let element) = event, replaysLatest { drainLatest = element }
      let observers = drainObservers
      if event.isStopEvent {
        drainStopEvent = event
        drainObservers = []
      }
      publishSummary()
      for (_, observer) in observers { observer.on(event) }

    case .subscribe(let key, let observer):
      if let stopEvent = drainStopEvent {
        observer.on(stopEvent)
        return
      }
      drainObservers.append((key, observer))
      publishSummary()
      if let latest = drainLatest { observer.on(.next(latest)) }

    case .unsubscribe(let key):
      guard let index = drainObservers.firstIndex(where: { $0.key == key }) else { return }
      drainObservers.remove(at: index)
      publishSummary()
    }
  }

  private func publishSummary() {
    let count = drainObservers.count
    summary.withLock { $0.observerCount = count }
  }
}
