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
}
