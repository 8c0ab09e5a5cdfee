import Locking

extension ObservableType {
  /// Delivers every event on `scheduler`, in the order they were sent.
  ///
  /// Events are queued and one scheduled action drains the queue, so order
  /// holds on any scheduler. Disposing drops the events not yet delivered.
  ///
  ///     outcomes.observe(on: mainScheduler).subscribe(onNext: print)
  public func observe(on scheduler: some ImmediateSchedulerType) -> Observable<Element> {
    Observable.create { observer in
      let queue = ObserveOnQueue(observer: observer, scheduler: scheduler)
      let subscription = self.subscribe { event in queue.enqueue(event) }
      return Disposables.create(subscription, queue)
    }
  }
}

/// The events waiting for delivery on the scheduler.
private final class ObserveOnQueue<Element: Sendable, Scheduler: ImmediateSchedulerType>:
  Disposable
{
  private struct State {
    var events: [Event<Element>] = []
    var isScheduled = false
    var isDisposed = false
  }

  private let observer: AnyObserver<Element>
  private let scheduler: Scheduler
  private let state = LockedState(State())

  init(observer: AnyObserver<Element>, scheduler: Scheduler) {
    self.observer = observer
    self.scheduler = scheduler
  }

  func enqueue(_ event: Event<Element>) {
    let needsDrain = state.withLock { state -> Bool in
      guard !state.isDisposed else { return false }
      state.events.append(event)
      if state.isScheduled { return false }
      state.isScheduled = true
      return true
    }
    // Not cancelled on disposal: the drain finds `isDisposed` and returns.
    if needsDrain { scheduler.schedule { self.drain() } }
  }

  private func drain() {
    while let event = next() { observer.on(event) }
  }

  private func next() -> Event<Element>? {
    state.withLock { state in
      guard !state.isDisposed, !state.events.isEmpty else {
        state.isScheduled = false
        return nil
      }
      return state.events.removeFirst()
    }
  }

  func dispose() {
    state.withLock { state in
      state.isDisposed = true
      state.events = []
    }
  }
}
