extension ObservableType {
  /// Sends this sequence's elements, then those of `next`, subscribed to only
  /// once this one has completed (never after a failure).
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
          current.setDisposable(next.asObservable().subscribe(observer))
        })
      return current
    }
  }
}
