extension ObservableType {
  /// Sends this sequence's elements, then, once it has completed, those of
  /// `next`, which is subscribed to only then. An error from either ends the
  /// whole; so `next` never runs after a failure.
  ///
  ///     register().concat(Observable.deferred { sync() })  // syncs only once registered
  public func concat(_ next: some ObservableType<Element>) -> Observable<Element> {
    Observable.create { observer in
      let current = SerialDisposable()
      let first = SingleAssignmentDisposable()
      current.setDisposable(first)
      first.setDisposable(
        self.asObservable().subscribe { event in
          guard case .completed = event else { return observer.on(event) }
          // Replacing the finished first subscription with the second.
          current.setDisposable(next.asObservable().subscribe(observer))
        })
      return current
    }
  }
}
