import Locking

extension Observable {
  /// The elements of all `sources`, as they arrive, one at a time.
  ///
  /// Fails as soon as one source fails (disposing the others); completes when
  /// all have completed. An empty list completes at once.
  ///
  ///     Observable.merge([adds, removes, syncRequests])
  public static func merge<Source: ObservableType>(
    _ sources: [Source]
  ) -> Observable<Element> where Source.Element == Element {
    guard !sources.isEmpty else { return .empty() }
    return .create { downstream in
      let observer = SerializedObserver(downstream)
      let active = LockedState(sources.count)
      let subscriptions = CompositeDisposable()
      for source in sources {
        subscriptions.insert(
          // Through `asObservable()` so that a completed source is disposed at once.
          source.asObservable().subscribe { event in
            guard case .completed = event else { return observer.on(event) }
            let left = active.withLock { active in
              active -= 1
              return active
            }
            if left == 0 { observer.onCompleted() }
          })
      }
      return subscriptions
    }
  }

  /// The elements of all `sources`, as they arrive.
  public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
    merge(sources)
  }
}
