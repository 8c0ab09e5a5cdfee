extension ObservableType {
  /// Passes on this sequence's events until `other` sends an element, then
  /// completes; an error of `other` is passed on, its completion ignored.
  ///
  ///     request.take(until: newerTokens)  // a newer token cancels this registration
  public func take<Other: ObservableType>(until other: Other) -> Observable<Element> {
    Observable.create { downstream in
      // The two sources may send from different threads.
      let serialized = SerialDrain(downstream.on)
      // Subscribed first: if `other` sends at once, nothing of this one is wanted.
      let stopper = other.asObservable().subscribe { event in
        switch event {
        case .next: serialized.submit(.completed)
        case .error(let error): serialized.submit(.error(error))
        case .completed: break
        }
      }
      let source = self.asObservable().subscribe { serialized.submit($0) }
      return Disposables.create(stopper, source)
    }
  }
}
