import Locking

extension ObservableType {
  /// Runs the sequence `selector` makes of each element one at a time, never
  /// cancelling the running one: of the elements that arrive meanwhile, only
  /// the newest starts one when it completes (the fetch limiter). Fails as soon
  /// as anything fails; completes when this sequence has and nothing runs or waits.
  ///
  ///     syncRequests.concatMapLatest { _ in syncTheNewestList() }
  public func concatMapLatest<Inner: ObservableType>(
    _ selector: @escaping @Sendable (Element) throws -> Inner
  ) -> Observable<Inner.Element> {
    Observable.create { downstream in
      // Inner and outer events may come from different threads.
      let serialized = SerialDrain(downstream.on)
      let current = SerialDisposable()
      // `waiting`: the newest element that arrived while an inner sequence ran.
      let state = LockedState<(isRunning: Bool, waiting: Element?, isOuterCompleted: Bool)>(
        (false, nil, false))

      @Sendable func start(_ element: Element) {
        // An inner that completed just as the subscription was disposed starts nothing.
        guard !current.isDisposed else { return }
        let inner: Inner
        do { inner = try selector(element) } catch { return serialized.submit(.error(error)) }
        let innerSubscription = SingleAssignmentDisposable()
        current.setDisposable(innerSubscription)
        innerSubscription.setDisposable(
          inner.asObservable().subscribe { event in
            guard case .completed = event else { return serialized.submit(event) }
            let (next, isComplete) = state.withLock { state -> (Element?, Bool) in
              defer { state.waiting = nil }
              state.isRunning = state.waiting != nil
              return (state.waiting, !state.isRunning && state.isOuterCompleted)
            }
            if let next { start(next) } else if isComplete { serialized.submit(.completed) }
          })
      }

      let outer = self.asObservable().subscribe { event in
        switch event {
        case .next(let element):
          let startsNow = state.withLock { state in
            // Otherwise it waits, replacing whatever waited.
            if state.isRunning { state.waiting = element }
            defer { state.isRunning = true }
            return !state.isRunning
          }
          if startsNow { start(element) }
        case .error(let error):
          serialized.submit(.error(error))
        case .completed:
          let isComplete = state.withLock { state in
            state.isOuterCompleted = true
            return !state.isRunning
          }
          if isComplete { serialized.submit(.completed) }
        }
      }
      return Disposables.create(outer, current)
    }
  }
}
