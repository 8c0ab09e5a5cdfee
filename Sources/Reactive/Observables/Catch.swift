extension ObservableType {
  /// Continues with the sequence `handler` returns for an error instead of
  /// failing; a handler that throws ends the result with its error.
  ///
  ///     mapsync.catch { error in isNotRegistered(error) ? registerThenSync : .error(error) }
  public func `catch`(
    _ handler: @escaping @Sendable (any Error) throws -> Observable<Element>
  ) -> Observable<Element> {
    Observable.create { observer in
      let current = SerialDisposable()
      let first = SingleAssignmentDisposable()
      current.setDisposable(first)
      first.setDisposable(
        self.asObservable().subscribe { event in
          guard case .error(let error) = event else { return observer.on(event) }
          do { current.setDisposable(try handler(error).subscribe(observer)) } catch {
            observer.onError(error)
          }
        })
      return current
    }
  }
}
