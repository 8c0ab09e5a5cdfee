extension Observable {
  /// The elements of `sequence` in order, then completion, all during the
  /// subscription (so `take(n)` drops the rest rather than stopping the
  /// iteration: use it for small finite sequences).
  ///
  ///     Observable.from([1, 2, 3])  // next(1), next(2), next(3), completed
  public static func from<S: Sequence & Sendable>(_ sequence: S) -> Observable<Element>
  where S.Element == Element {
    create { observer in
      for element in sequence { observer.onNext(element) }
      observer.onCompleted()
      return Disposables.create()
    }
  }

  /// The given elements in order, then completion.
  public static func of(_ elements: Element...) -> Observable<Element> {
    from(elements)
  }
}
