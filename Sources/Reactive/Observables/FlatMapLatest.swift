extension ObservableType {
  /// Subscribes to the sequence `selector` makes of each element, disposing
  /// the previous one: only the newest inner sequence is heard.
  ///
  /// Fails as soon as this sequence, `selector` or the current inner sequence
  /// fails; completes when this sequence and the current inner one have completed.
  ///
  ///     tokens.flatMapLatest { token in register(token) }  // a new token cancels the old request
  public func flatMapLatest<Inner: ObservableType>(
    _ selector: @escaping @Sendable (Element) throws -> Inner
  ) -> Observable<Inner.Element> {
    Observable.create { downstream in
      let observer = SerializedObserver(downstream)
      let current = SerialDisposable()
      let state = LockedState(FlatMapLatestState())

      // Through `asObservable()` so that each sequence is disposed once it completes.
      let outer = self.asObservable().subscribe { event in
        switch event {
        case .next(let element):
          let inner: Inner
          do { inner = try selector(element) } catch { return observer.onError(error) }
          let generation = state.withLock { $0.startInner() }
          let innerSubscription = SingleAssignmentDisposable()
          current.setDisposable(innerSubscription)
          innerSubscription.setDisposable(
            inner.asObservable().subscribe { innerEvent in
              guard state.withLock({ $0.generation == generation }) else { return }
              guard case .completed = innerEvent else { return observer.on(innerEvent) }
              if state.withLock({ $0.finishInner(generation) }) { observer.onCompleted() }
            })
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

  /// Returns whether the whole sequence is now complete.
  mutating func finishInner(_ finished: UInt64) -> Bool {
    guard finished == generation else { return false }
    hasActiveInner = false
    return isOuterCompleted
  }

  /// Returns whether the whole sequence is now complete.
  mutating func finishOuter() -> Bool {
    isOuterCompleted = true
    return !hasActiveInner
  }
}
