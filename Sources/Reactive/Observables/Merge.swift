extension Observable {
  /// The elements of all `sources`, as they arrive, one at a time: fails as
  /// soon as one fails (disposing the others), completes when all have
  /// completed. An empty list completes at once.
  ///
  ///     Observable.merge([adds, removes, syncRequests])
  public static func merge<Source: ObservableType>(
    _ sources: [Source]
  ) -> Observable<Element> where Source.Element == Element {
    Observable<Source>.from(sources).flatMap { $0 }
  }

  /// The elements of all `sources`, as they arrive.
  public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
    merge(sources)
  }
}
