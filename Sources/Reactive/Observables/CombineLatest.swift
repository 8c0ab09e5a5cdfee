import Locking

extension Observable {
  /// Once every source has sent an element, sends the latest element of each
  /// (in source order) whenever any of them sends one, one at a time in
  /// arrival order. Fails as soon as a source fails; completes when all have
  /// completed. An empty list completes at once.
  ///
  ///     Observable.combineLatest([uidValid, tokenValid])  // [true, false], [true, true], …
  public static func combineLatest<Source: ObservableType>(
    _ sources: [Source]
  ) -> Observable<[Source.Element]> where Element == [Source.Element] {
    guard !sources.isEmpty else { return .empty() }
    return .create { observer in
      let state = LockedState(
        (latest: [Source.Element?](repeating: nil, count: sources.count), running: sources.count))
      // Recording and delivering happen together, one event at a time.
      let drain = SerialDrain<(index: Int, event: Event<Source.Element>)> { index, event in
        switch event {
        case .next(let element):
          let latest = state.withLock { state in
            state.latest[index] = element
            return state.latest.compactMap { $0 }
          }
          if latest.count == sources.count { observer.onNext(latest) }
        case .error(let error):
          observer.onError(error)
        case .completed:
          let running = state.withLock { state in
            state.running -= 1
            return state.running
          }
          if running == 0 { observer.onCompleted() }
        }
      }
      let subscriptions = CompositeDisposable()
      for (index, source) in sources.enumerated() {
        subscriptions.insert(
          // Through `asObservable()` so that a completed source is disposed at once.
          source.asObservable().subscribe { event in drain.submit((index, event)) })
      }
      return subscriptions
    }
  }

  /// Combines the latest elements of two sources with `resultSelector`; an
  /// error it throws ends the sequence.
  ///
  ///     Observable.combineLatest(uidValid, tokenValid) { $0 && $1 }  // the Bind button
  public static func combineLatest<First: ObservableType, Second: ObservableType>(
    _ first: First, _ second: Second,
    resultSelector: @escaping @Sendable (First.Element, Second.Element) throws -> Element
  ) -> Observable<Element> {
    Observable<[any Sendable]>
      .combineLatest([erase(first), erase(second)])
      .map { try resultSelector($0[0] as! First.Element, $0[1] as! Second.Element) }
  }

  /// Combines the latest elements of three sources with `resultSelector`.
  public static func combineLatest<
    First: ObservableType, Second: ObservableType, Third: ObservableType
  >(
    _ first: First, _ second: Second, _ third: Third,
    resultSelector:
      @escaping @Sendable (First.Element, Second.Element, Third.Element) throws ->
      Element
  ) -> Observable<Element> {
    Observable<[any Sendable]>
      .combineLatest([erase(first), erase(second), erase(third)])
      .map {
        try resultSelector(
          $0[0] as! First.Element, $0[1] as! Second.Element, $0[2] as! Third.Element)
      }
  }

  private static func erase<Source: ObservableType>(_ source: Source) -> Observable<any Sendable> {
    source.map { $0 as any Sendable }
  }
}
