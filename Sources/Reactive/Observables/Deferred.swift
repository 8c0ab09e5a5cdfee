extension Observable {
  /// Subscribes each subscriber to what `factory` returns then; an error it
  /// throws is the sequence's error.
  ///
  ///     Observable.deferred { .just(store.load()) }  // reads the store per subscriber
  public static func deferred(
    _ factory: @escaping @Sendable () throws -> Observable<Element>
  ) -> Observable<Element> {
    create { observer in
      do {
        return try factory().subscribe(observer)
      } catch {
        observer.onError(error)
        return Disposables.create()
      }
    }
  }
}
