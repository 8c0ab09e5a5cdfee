extension ObservableType {
  /// Passes on only the elements for which `isIncluded` is true; an error it
  /// throws ends the sequence with that error.
  ///
  ///     tokens.filter { $0.count == 64 }
  public func filter(
    _ isIncluded: @escaping @Sendable (Element) throws -> Bool
  ) -> Observable<Element> {
    Observable.create { observer in
      self.subscribe { event in
        guard case .next(let element) = event else { return observer.on(event) }
        do {
          if try isIncluded(element) { observer.onNext(element) }
        } catch {
          observer.onError(error)
        }
      }
    }
  }
}
