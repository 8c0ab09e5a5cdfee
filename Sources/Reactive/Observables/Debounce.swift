import Locking

extension ObservableType {
  /// Sends an element only once `dueTime` has passed on `scheduler`'s clock
  /// without a newer one; a burst becomes its last element.
  ///
  /// Completion first sends the element still waiting, if any; an error drops it.
  ///
  ///     storeChanges.debounce(.milliseconds(200), scheduler: scheduler)
  public func debounce(
    _ dueTime: Duration, scheduler: some SchedulerType
  ) -> Observable<Element> {
    Observable.create { observer in
      let timer = SerialDisposable()
      // The waiting element; only touched by the drain's handler, one item at a time.
      let pending = LockedState<(id: UInt64, element: Element?)>((0, nil))
      // How a timer reaches the drain below (set once it exists, cleared on disposal).
      let drainBox = LockedState<SerialDrain<DebounceItem<Element>>?>(nil)
      // Source events and timer firings go through one drain, so a firing and
      // a completion can never overtake each other.
      let drain = SerialDrain<DebounceItem<Element>> { item in
        switch item {
        case .event(.next(let element)):
          let id = pending.withLock { pending in
            pending = (pending.id + 1, element)
            return pending.id
          }
          timer.setDisposable(
            scheduler.schedule(after: dueTime) { drainBox.value?.submit(.fire(id)) })
        case .fire(let id):
          let due = pending.withLock { pending -> Element? in
            guard pending.id == id else { return nil }
            defer { pending.element = nil }
            return pending.element
          }
          if let due { observer.onNext(due) }
        case .event(.error(let error)):
          timer.dispose()
          pending.withLock { $0.element = nil }
          observer.onError(error)
        case .event(.completed):
          timer.dispose()
          let last = pending.withLock { pending in
            defer { pending.element = nil }
            return pending.element
          }
          if let last { observer.onNext(last) }
          observer.onCompleted()
        }
      }
      drainBox.withLock { $0 = drain }
      let subscription = self.subscribe { drain.submit(.event($0)) }
      return Disposables.create(
        subscription, timer, Disposables.create { drainBox.withLock { $0 = nil } })
    }
  }
}

/// What the drain of one `debounce` handles.
private enum DebounceItem<Element: Sendable>: Sendable {
  case event(Event<Element>)
  case fire(UInt64)
}
