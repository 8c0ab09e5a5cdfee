/// The machinery shared by ``PublishSubject`` and ``BehaviorSubject``: the
/// observer list, the stop event, and the optional latest element.
///
/// Events, subscriptions and unsubscriptions are commands handled one at a
/// time through a ``SerialDrain``: observers never run concurrently, an event
/// sent from inside an observer is delivered to everyone after the current
/// one, and no lock is held while observers run.
final class SubjectCore<Element: Sendable>: @unchecked Sendable {
  // @unchecked: the `drain*` properties are only touched by `handle`, which the
  // drain runs on one thread at a time; `summary` has its own lock.

  private enum Command {
    case event(Event<Element>)
    case subscribe(UInt64, AnyObserver<Element>)
    case unsubscribe(UInt64)
  }

  /// What readers outside the drain may see.
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
  private var drain: SerialDrain<Command>!
  let summary: LockedState<Summary>

  init(replaying initial: Element?) {
    replaysLatest = initial != nil
    drainLatest = initial
    summary = LockedState(Summary(latest: initial))
    drain = SerialDrain { [unowned self] command in self.handle(command) }
  }

  /// Whether anyone is subscribed.
  var hasObservers: Bool {
    summary.withLock { $0.observerCount > 0 }
  }

  /// Whether the subject received an error or completion.
  var isStopped: Bool {
    summary.withLock { $0.stopEvent != nil }
  }

  func on(_ event: Event<Element>) {
    drain.submit(.event(event))
  }

  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    let key = summary.withLock { summary in
      defer { summary.nextKey += 1 }
      return summary.nextKey
    }
    drain.submit(.subscribe(key, observer))
    return Disposables.create { [self] in drain.submit(.unsubscribe(key)) }
  }

  private func handle(_ command: Command) {
    switch command {
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
    let (latest, stopEvent, count) = (drainLatest, drainStopEvent, drainObservers.count)
    summary.withLock { summary in
      summary.latest = latest
      summary.stopEvent = stopEvent
      summary.observerCount = count
    }
  }
}
