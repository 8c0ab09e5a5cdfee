extension Observable {
  /// The elements of `sequence` in order, then completion; stops early if the
  /// subscriber disposes meanwhile.
  ///
  ///     Observable.from([1, 2, 3])  // next(1), next(2), next(3), completed
  public static func from<S: Sequence & Sendable>(_ sequence: S) -> Observable<Element>
  where S.Element == Element {
    create { observer in
      let cancelled = BooleanDisposable()
      for element in sequence {
        if cancelled.isDisposed { return cancelled }
        observer.onNext(element)
      }
      observer.onCompleted()
      return cancelled
    }
  }

  /// The given elements in order, then completion.
  public static func of(_ elements: Element...) -> Observable<Element> {
    from(elements)
  }
}
