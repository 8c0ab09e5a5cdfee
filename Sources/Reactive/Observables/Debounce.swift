import Locking

extension ObservableType {
  /// Sends an element only once `dueTime` has passed on `scheduler`'s clock
  /// without a newer one; a burst becomes its last element. With a
  /// `maxDelay`, a burst that never pauses for `dueTime` still sends its
  /// newest element once `maxDelay` has passed since the first element not
  /// yet sent, so that no element waits longer than `maxDelay`.
  ///
  /// Completion first sends the element still waiting, if any; an error drops
  /// it. Costs two timers on `scheduler` at most, whatever the rate.
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
      // How a timer reaches the drain below (set once it exists, cleared on disposal).
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
        case .event(.error(let error)):
          quietTimer.dispose()
          maxDelayTimer.dispose()
          _ = state.withLock { $0.take() }
          observer.onError(error)
        case .event(.completed):
          quietTimer.dispose()
          maxDelayTimer.dispose()
          if let last = state.withLock({ $0.take() }) { observer.onNext(last) }
          observer.onCompleted()
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

/// What the drain of one `debounce` handles: a source event, or a timer set
/// for the element numbered `id` or the window numbered `window`.
private enum DebounceItem<Element: Sendable>: Sendable {
  case event(Event<Element>)
  case quiet(UInt64)
  case maxDelay(UInt64)
}

/// The element waiting to be sent, and which timers may still send it: the
/// quiet timer of the newest element, and the max-delay timer of the window
/// opened by the first element after the last one sent.
private struct DebounceState<Element> {
  private var pending: Element?
  private var elementID: UInt64 = 0
  private var windowID: UInt64 = 0
  private var windowIsOpen = false

  /// Keeps `element` as the one waiting; returns its number and, if it is the
  /// first one waiting, the number of the window it opens.
  mutating func receive(_ element: Element) -> (id: UInt64, opensWindow: UInt64?) {
    pending = element
    elementID += 1
    guard !windowIsOpen else { return (elementID, nil) }
    windowIsOpen = true
    windowID += 1
    return (elementID, windowID)
  }

  /// The waiting element, if `id` is still the newest one's.
  mutating func takeIfQuiet(_ id: UInt64) -> Element? {
    id == elementID ? take() : nil
  }

  /// The waiting element, if `window` is still open.
  mutating func takeIfWindow(_ window: UInt64) -> Element? {
    windowIsOpen && window == windowID ? take() : nil
  }

  /// The waiting element, if any; closes the window.
  mutating func take() -> Element? {
    defer {
      pending = nil
      windowIsOpen = false
    }
    return pending
  }
}
