extension Observable {
  /// One element, then completion.
  ///
  ///     Observable.just(1)  // next(1), completed
  public static func just(_ element: Element) -> Observable<Element> {
    from([element])
  }
}
