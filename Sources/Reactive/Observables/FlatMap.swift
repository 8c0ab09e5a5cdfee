import Locking

extension ObservableType {
  /// Sends the elements of the sequences `selector` makes of each element, as
  /// they arrive, one at a time. Fails as soon as anything fails; completes
  /// when this sequence and every inner one have completed.
  ///
  ///     uids.flatMap { uid in transport.send(.event(uid)) }
  public func flatMap<Inner: ObservableType>(
    _ selector: @escaping @Sendable (Element) throws -> Inner
  ) -> Observable<Inner.Element> {
    Observable.create { downstream in
      // Inner and outer events may come from different threads.
      let serialized = SerialDrain(downstream.on)
      let subscriptions = CompositeDisposable()
      // The outer sequence counts as one active member until it completes.
      let active = LockedState(1)
      let finishOne = { @Sendable in
        let left = active.withLock { active in
          active -= 1
          return active
        }
        if left == 0 { serialized.submit(.completed) }
      }

      let outer = SingleAssignmentDisposable()
      subscriptions.insert(outer)
      // Through `asObservable()`, so that it is disposed once it completes.
      outer.setDisposable(
        self.asObservable().subscribe { event in
          switch event {
          case .next(let element):
            let inner: Inner
            do { inner = try selector(element) } catch { return serialized.submit(.error(error)) }
            active.withLock { $0 += 1 }
            let innerSubscription = SingleAssignmentDisposable()
            guard let key = subscriptions.insert(innerSubscription) else { return }
            innerSubscription.setDisposable(
              inner.subscribe { innerEvent in
                guard case .completed = innerEvent else { return serialized.submit(innerEvent) }
                subscriptions.remove(for: key)
                finishOne()
              })
          case .error(let error):
            serialized.submit(.error(error))
          case .completed:
            finishOne()
          }
        })
      return subscriptions
    }
  }
}
