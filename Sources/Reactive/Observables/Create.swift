extension Observable {
  /// An observable defined by `subscribe`: it runs for each subscriber, sends
  /// events to the observer it is given, and returns what stops it.
  ///
  /// Events sent after an error or completion, or after disposal, are dropped;
  /// an error or completion disposes what `subscribe` returned.
  ///
  ///     Observable<Int>.create { observer in
  ///       observer.onNext(42)
  ///       observer.onCompleted()
  ///       return Disposables.create()
  ///     }
  public static func create(
    _ subscribe: @escaping @Sendable (AnyObserver<Element>) -> any Disposable
  ) -> Observable<Element> {
    Observable(subscribe)
  }
}
