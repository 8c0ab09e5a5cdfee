extension ObservableType {
  /// Turns every event into an element (a stop event is followed by
  /// completion), so that errors flow on as values and the result never fails.
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
