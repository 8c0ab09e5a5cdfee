extension ObservableType {
  /// Transforms each element with `transform`; an error it throws ends the
  /// sequence with that error.
  ///
  ///     uidText.map { $0.count == 20 }
  public func map<Result: Sendable>(
    _ transform: @escaping @Sendable (Element) throws -> Result
  ) -> Observable<Result> {
    compactMap { .some(try transform($0)) }
  }

  /// Passes on the non-`nil` results of `transform`; an error it throws ends
  /// the sequence with that error.
  ///
  ///     uidText.compactMap { try? DeviceUID($0) }
  public func compactMap<Result: Sendable>(
    _ transform: @escaping @Sendable (Element) throws -> Result?
  ) -> Observable<Result> {
    Observable.create { observer in
      self.subscribe { event in
        switch event {
        case .next(let element):
          do { if let result = try transform(element) { observer.onNext(result) } } catch {
            observer.onError(error)
          }
        case .error(let error): observer.onError(error)
        case .completed: observer.onCompleted()
        }
      }
    }
  }

  /// Passes on only the elements for which `isIncluded` is true; an error it
  /// throws ends the sequence with that error.
  ///
  ///     tokens.filter { $0.count == 64 }
  public func filter(
    _ isIncluded: @escaping @Sendable (Element) throws -> Bool
  ) -> Observable<Element> {
    compactMap { try isIncluded($0) ? $0 : nil }
  }
}
