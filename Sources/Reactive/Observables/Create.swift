extension Observable {
  /// An observable that runs `subscribe` for each subscriber: it sends events
  /// to the observer it is given and returns what stops it. Events after an
  /// error, a completion or disposal are dropped; an error or completion
  /// disposes what `subscribe` returned.
  ///
  ///     Observable<Int>.create { observer in
  ///       observer.onNext(42)
  ///       observer.onCompleted()
  ///       return Disposables.create()
  ///     }
  public static func create(
    _ subscribe: @escaping @Sendable (AnyObserver<Element>) -> any Disposable
  ) -> Observable<Element> {
    Observable(subscribeHandler: subscribe)
  }

  /// Subscribes each subscriber to what `factory` returns then; an error it
  /// throws is the sequence's error.
  ///
  ///     Observable.deferred { .just(store.load()) }  // reads the store per subscriber
  public static func deferred(
    _ factory: @escaping @Sendable () throws -> Observable<Element>
  ) -> Observable<Element> {
    create { observer in
      do {
        return try factory().subscribe(observer)
      } catch {
        observer.onError(error)
        return Disposables.create()
      }
    }
  }

  /// The elements of `sequence` in order, then completion, all during the
  /// subscription (so `take(n)` drops the rest rather than stopping the
  /// iteration: use it for small finite sequences).
  ///
  ///     Observable.from(1...3)  // next(1), next(2), next(3), completed
  public static func from<S: Sequence & Sendable>(_ sequence: S) -> Observable<Element>
  where S.Element == Element {
    create { observer in
      for element in sequence { observer.onNext(element) }
      observer.onCompleted()
      return Disposables.create()
    }
  }

  /// The elements of `array`, as the generic `from` sends a sequence's: without the
  /// runtime's look-up of a generic sequence's iterator type (a scan of every
  /// conformance in the program, once per element type).
  public static func from(_ array: [Element]) -> Observable<Element> {
    create { observer in
      for element in array { observer.onNext(element) }
      observer.onCompleted()
      return Disposables.create()
    }
  }

  /// The given elements in order, then completion.
  public static func of(_ elements: Element...) -> Observable<Element> {
    from(elements)
  }

  /// One element, then completion.
  ///
  ///     Observable.just(1)  // next(1), completed
  public static func just(_ element: Element) -> Observable<Element> {
    from([element])
  }

  /// Completion, with no element.
  public static func empty() -> Observable<Element> {
    from([])
  }

  /// A sequence that never sends anything, not even completion.
  public static func never() -> Observable<Element> {
    create { _ in Disposables.create() }
  }

  /// An immediate error, with no element.
  ///
  ///     Observable<Int>.error(TransportError.timeout)  // error(timeout)
  public static func error(_ error: any Error) -> Observable<Element> {
    create { observer in
      observer.onError(error)
      return Disposables.create()
    }
  }
}
