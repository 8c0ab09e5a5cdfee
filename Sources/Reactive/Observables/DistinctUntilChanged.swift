import Locking

extension ObservableType {
  /// Drops each element that `isEquivalent` says is the same as the one passed
  /// on before it; an error it throws ends the sequence with that error.
  public func distinctUntilChanged(
    _ isEquivalent: @escaping @Sendable (Element, Element) throws -> Bool
  ) -> Observable<Element> {
    Observable.deferred {
      let previous = LockedState<Element?>(nil)
      return self.compactMap { element in
        if let last = previous.value, try isEquivalent(last, element) { return nil }
        previous.withLock { $0 = element }
        return element
      }
    }
  }

  /// Drops each element whose `key` equals that of the element passed on before it.
  ///
  ///     state.distinctUntilChanged { $0.uids }
  public func distinctUntilChanged<Key: Equatable & Sendable>(
    _ key: @escaping @Sendable (Element) throws -> Key
  ) -> Observable<Element> {
    distinctUntilChanged { try key($0) == key($1) }
  }
}

extension ObservableType where Element: Equatable {
  /// Drops each element equal to the one passed on before it.
  ///
  ///     canAdd.distinctUntilChanged()  // false, true, false — never true, true
  public func distinctUntilChanged() -> Observable<Element> {
    distinctUntilChanged { $0 == $1 }
  }
}
