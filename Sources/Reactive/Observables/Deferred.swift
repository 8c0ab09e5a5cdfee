extension Observable {
  /// Calls `factory` anew for each subscriber and subscribes to what it
  /// returns; an error thrown by `factory` is sent as the sequence's error.
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
