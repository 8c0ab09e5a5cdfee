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
      let observer = SerializedObserver(downstream)
      let current = SerialDisposable()
      let state = LockedState(ConcatMapLatestState<Element>())

      @Sendable func start(_ element: Element) {
        // An inner that completed just as the subscription was disposed starts nothing.
        guard !current.isDisposed else { return }
        let inner: Inner
        do { inner = try selector(element) } catch { return observer.onError(error) }
        let innerSubscription = SingleAssignmentDisposable()
        current.setDisposable(innerSubscription)
        innerSubscription.setDisposable(
          inner.asObservable().subscribe { event in
            guard case .completed = event else { return observer.on(event) }
            switch state.withLock({ $0.finishInner() }) {
            case .startNext(let next): start(next)
            case .complete: observer.onCompleted()
            case .idle: break
            }
          })
      }

      let outer = self.asObservable().subscribe { event in
        switch event {
        case .next(let element):
          if state.withLock({ $0.offer(element) }) { start(element) }
        case .error(let error):
          observer.onError(error)
        case .completed:
          if state.withLock({ $0.finishOuter() }) { observer.onCompleted() }
        }
      }
      return Disposables.create(outer, current)
    }
  }
}

/// Whether an inner sequence runs, the newest element waiting, and completion.
private struct ConcatMapLatestState<Element> {
  enum AfterInner {
    case startNext(Element)
    case complete
    case idle
  }

  var isRunning = false
  var waiting: Element?
  var isOuterCompleted = false

  /// Whether `element` starts now; otherwise it waits, replacing whatever waited.
  mutating func offer(_ element: Element) -> Bool {
    guard isRunning else {
      isRunning = true
      return true
    }
    waiting = element
    return false
  }

  mutating func finishInner() -> AfterInner {
    if let next = waiting {
      waiting = nil
      return .startNext(next)
    }
    isRunning = false
    return isOuterCompleted ? .complete : .idle
  }

  /// Whether the whole sequence is now complete.
  mutating func finishOuter() -> Bool {
    isOuterCompleted = true
    return !isRunning
  }
}
