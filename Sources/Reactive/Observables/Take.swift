import Locking

extension ObservableType {
  /// Passes on the first `count` elements, then completes (and disposes this
  /// sequence); `take(0)` completes without subscribing.
  ///
  ///     buttonTap.flatMapLatest { text.take(1) }  // the text at the moment of the tap
  public func take(_ count: Int) -> Observable<Element> {
    precondition(count >= 0, "take needs a count of zero or more")
    guard count > 0 else { return .empty() }
    return Observable.create { observer in
      let remaining = LockedState(count)
      return self.subscribe { event in
        guard case .next(let element) = event else { return observer.on(event) }
        let left = remaining.withLock { remaining -> Int? in
          guard remaining > 0 else { return nil }
          remaining -= 1
          return remaining
        }
        guard let left else { return }
        observer.onNext(element)
        if left == 0 { observer.onCompleted() }
      }
    }
  }
}
