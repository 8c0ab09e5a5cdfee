import Locking

extension ObservableType {
  /// Drops each element that `isEquivalent` says is the same as the one passed
  /// on before it; an error it throws ends the sequence with that error.
  public func distinctUntilChanged(
    _ isEquivalent: @escaping @Sendable (Element, Element) throws -> Bool
  ) -> Observable<Element> {
    Observable.create { observer in
      let previous = LockedState<Element?>(nil)
      return self.subscribe { event in
        guard case .next(let element) = event else { return observer.on(event) }
        do {
          let last = previous.value
          if let last, try isEquivalent(last, element) { return }
          previous.withLock { $0 = element }
          observer.onNext(element)
        } catch {
          observer.onError(error)
        }
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
