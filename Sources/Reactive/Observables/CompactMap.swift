extension ObservableType {
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
}
