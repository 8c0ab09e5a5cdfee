extension ObservableType {
  /// Turns every event into an element: `.next(x)` becomes `.next(.next(x))`,
  /// and an error or completion becomes an element followed by completion.
  /// The result never fails, so errors can flow on as values (the
  /// single-source-of-truth pattern's `Observable<Event<T>>`).
  ///
  ///     request.materialize()  // next(.next(body)), next(.completed), completed
  public func materialize() -> Observable<Event<Element>> {
    Observable.create { observer in
      self.subscribe { event in
        observer.onNext(event)
        if event.isStopEvent { observer.onCompleted() }
      }
    }
  }
}
