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
}
