extension ObservableType {
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
