extension ObservableType {
  /// Sends `elements` first, then subscribes to this sequence.
  ///
  ///     list.startWith([])  // the table starts empty
  public func startWith(_ elements: Element...) -> Observable<Element> {
    Observable.from(elements).concat(self)
  }
}
