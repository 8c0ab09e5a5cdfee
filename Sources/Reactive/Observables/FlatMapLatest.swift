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
      let state = LockedState(FlatMapLatestState())
      // Every event, outer or inner, is delivered through one drain, in order.
      let drain = SerialDrain<FlatMapLatestItem<Inner.Element>> { item in
        switch item {
        case .inner(let generation, let event):
          guard state.withLock({ $0.generation == generation }) else { return }
          guard case .completed = event else { return observer.on(event) }
          if state.withLock({ $0.finishInner(generation) }) { observer.onCompleted() }
        case .outerError(let error):
          observer.onError(error)
        case .outerCompleted:
          if state.withLock({ $0.finishOuter() }) { observer.onCompleted() }
        }
      }

      // Through `asObservable()` so that each sequence is disposed once it completes.
      let outer = self.asObservable().subscribe { event in
        switch event {
        case .next(let element):
          let inner: Inner
          do { inner = try selector(element) } catch { return drain.submit(.outerError(error)) }
          let generation = state.withLock { $0.startInner() }
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

/// Which inner sequence is current, and what has completed.
private struct FlatMapLatestState {
  var generation: UInt64 = 0
  var hasActiveInner = false
  var isOuterCompleted = false

  mutating func startInner() -> UInt64 {
    generation += 1
    hasActiveInner = true
    return generation
  }

  /// Whether the whole sequence is now complete.
  mutating func finishInner(_ finished: UInt64) -> Bool {
    guard finished == generation else { return false }
    hasActiveInner = false
    return isOuterCompleted
  }

  mutating func finishOuter() -> Bool {
    isOuterCompleted = true
    return !hasActiveInner
  }
}
