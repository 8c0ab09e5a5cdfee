import Locking

extension ObservableType {
  /// Subscribes to the sequence `selector` makes of each element, disposing
  /// the previous one: only the newest is heard (checked at delivery, so nothing
  /// of a replaced one follows the new one's). Fails as soon as anything fails;
  /// completes when this sequence and the current inner one have completed.
  ///
  ///     tokens.flatMapLatest { token in register(token) }  // a new token cancels the old request
  public func flatMapLatest<Inner: ObservableType>(
    _ selector: @escaping @Sendable (Element) throws -> Inner
  ) -> Observable<Inner.Element> {
    Observable.create { observer in
      let current = SerialDisposable()
      let state = LockedState<(generation: UInt64, hasActiveInner: Bool, isOuterCompleted: Bool)>(
        (0, false, false))
      // Every event, outer or inner, is delivered through one drain, in order.
      let drain = SerialDrain<FlatMapLatestItem<Inner.Element>> { item in
        switch item {
        case .inner(let generation, let event):
          guard state.withLock({ $0.generation == generation }) else { return }
          guard case .completed = event else { return observer.on(event) }
          let isComplete = state.withLock { state in
            guard state.generation == generation else { return false }
            state.hasActiveInner = false
            return state.isOuterCompleted
          }
          if isComplete { observer.onCompleted() }
        case .outerError(let error):
          observer.onError(error)
        case .outerCompleted:
          let isComplete = state.withLock { state in
            state.isOuterCompleted = true
            return !state.hasActiveInner
          }
          if isComplete { observer.onCompleted() }
        }
      }

      // Through `asObservable()` so that each sequence is disposed once it completes.
      let outer = self.asObservable().subscribe { event in
        switch event {
        case .next(let element):
          let inner: Inner
          do { inner = try selector(element) } catch { return drain.submit(.outerError(error)) }
          let generation = state.withLock { state in
            state.generation += 1
            state.hasActiveInner = true
            return state.generation
          }
          let innerSubscription = SingleAssignmentDisposable()
          current.setDisposable(innerSubscription)
          innerSubscription.setDisposable(
            inner.asObservable().subscribe { drain.submit(.inner(generation, $0)) })
        case .error(let error):
          drain.submit(.outerError(error))
        case .completed:
          drain.submit(.outerCompleted)
        }
      }
      return Disposables.create(outer, current)
    }
  }
}

private enum FlatMapLatestItem<Element: Sendable>: Sendable {
  case inner(UInt64, Event<Element>)
  case outerError(any Error)
  case outerCompleted
}
