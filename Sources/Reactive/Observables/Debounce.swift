import Locking

extension ObservableType {
  /// Sends an element once `dueTime` has passed on `scheduler`'s clock without
  /// a newer one: a burst becomes its last element. With a `maxDelay`, a burst
  /// that never pauses still sends its newest element once `maxDelay` has
  /// passed since the first one not yet sent. Completion first sends the
  /// element still waiting; an error drops it. At most two timers, whatever the rate.
  ///
  ///     storeChanges.debounce(.milliseconds(200), maxDelay: .seconds(2), scheduler: scheduler)
  public func debounce(
    _ dueTime: Duration, maxDelay: Duration? = nil, scheduler: some SchedulerType
  ) -> Observable<Element> {
    Observable.create { observer in
      let quietTimer = SerialDisposable()
      let maxDelayTimer = SerialDisposable()
      // `window`: the number of the element that opened the current window (nil:
      // none is open). Only the drain's handler touches it.
      let state = LockedState<(pending: Element?, elementID: UInt64, window: UInt64?)>(
        (nil, 0, nil))
      // The element waiting if `isDue(elementID, window)`; closes the window.
      @Sendable func take(if isDue: (UInt64, UInt64?) -> Bool) -> Element? {
        state.withLock { state in
          guard isDue(state.elementID, state.window) else { return nil }
          defer { (state.pending, state.window) = (nil, nil) }
          return state.pending
        }
      }
      // How a timer reaches the drain below (cleared on disposal).
      let drainBox = LockedState<SerialDrain<DebounceItem<Element>>?>(nil)
      let schedule: @Sendable (Duration, DebounceItem<Element>) -> any Disposable = { delay, item in
        scheduler.schedule(after: delay) { drainBox.value?.submit(item) }
      }
      // Source events and timer firings go through one drain, so a firing and
      // a completion can never overtake each other.
      let drain = SerialDrain<DebounceItem<Element>> { item in
        switch item {
        case .event(.next(let element)):
          let (id, opensWindow) = state.withLock { state -> (UInt64, Bool) in
            state.pending = element
            state.elementID += 1
            defer { state.window = state.window ?? state.elementID }
            return (state.elementID, state.window == nil)
          }
          quietTimer.setDisposable(schedule(dueTime, .quiet(id)))
          if let maxDelay, opensWindow {
            maxDelayTimer.setDisposable(schedule(maxDelay, .maxDelay(id)))
          }
        case .quiet(let id):
          guard let due = take(if: { newest, _ in newest == id }) else { return }
          maxDelayTimer.setDisposable(Disposables.create())
          observer.onNext(due)
        case .maxDelay(let window):
          guard let due = take(if: { _, open in open == window }) else { return }
          quietTimer.setDisposable(Disposables.create())
          observer.onNext(due)
        case .event(let stop):
          quietTimer.dispose()
          maxDelayTimer.dispose()
          let last = take { _, _ in true }
          if case .completed = stop, let last { observer.onNext(last) }
          observer.on(stop)
        }
      }
      drainBox.withLock { $0 = drain }
      let subscription = self.subscribe { drain.submit(.event($0)) }
      return Disposables.create(
        subscription, quietTimer, maxDelayTimer,
        Disposables.create { drainBox.withLock { $0 = nil } }
      )
    }
  }
}

/// A source event, or a timer set for the element, or the window it opened, with this number.
private enum DebounceItem<Element: Sendable>: Sendable {
  case event(Event<Element>)
  case quiet(UInt64)
  case maxDelay(UInt64)
}
