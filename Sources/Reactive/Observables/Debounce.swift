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
      // Only touched by the drain's handler, one item at a time.
      let state = LockedState(DebounceState<Element>())
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
          let (id, opensWindow) = state.withLock { $0.receive(element) }
          quietTimer.setDisposable(schedule(dueTime, .quiet(id)))
          if let maxDelay, let window = opensWindow {
            maxDelayTimer.setDisposable(schedule(maxDelay, .maxDelay(window)))
          }
        case .quiet(let id):
          guard let due = state.withLock({ $0.takeIfQuiet(id) }) else { return }
          maxDelayTimer.setDisposable(Disposables.create())
          observer.onNext(due)
        case .maxDelay(let window):
          guard let due = state.withLock({ $0.takeIfWindow(window) }) else { return }
          quietTimer.setDisposable(Disposables.create())
          observer.onNext(due)
        case .event(let stop):
          quietTimer.dispose()
          maxDelayTimer.dispose()
          let last = state.withLock { $0.take() }
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

/// A source event, or a timer set for the element or the window with this number.
private enum DebounceItem<Element: Sendable>: Sendable {
  case event(Event<Element>)
  case quiet(UInt64)
  case maxDelay(UInt64)
}

/// The element waiting, and which timers may still send it: the newest
/// element's quiet timer, and the max-delay timer of the window its burst opened.
private struct DebounceState<Element> {
  private var pending: Element?
  private var elementID: UInt64 = 0
  private var windowID: UInt64 = 0
  private var windowIsOpen = false

  /// Returns `element`'s number and, if it is the first one waiting, its window's.
  mutating func receive(_ element: Element) -> (id: UInt64, opensWindow: UInt64?) {
    pending = element
    elementID += 1
    guard !windowIsOpen else { return (elementID, nil) }
    windowIsOpen = true
    windowID += 1
    return (elementID, windowID)
  }

  mutating func takeIfQuiet(_ id: UInt64) -> Element? {
    id == elementID ? take() : nil
  }

  mutating func takeIfWindow(_ window: UInt64) -> Element? {
    windowIsOpen && window == windowID ? take() : nil
  }

  /// Closes the window.
  mutating func take() -> Element? {
    defer {
      pending = nil
      windowIsOpen = false
    }
    return pending
  }
}
