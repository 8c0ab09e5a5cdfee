extension ObservableType {
  /// Runs side effects for each event before passing it on; an error `onNext`
  /// throws ends the sequence with that error.
  ///
  ///     changes.do(onCompleted: { triggers.onCompleted() })
  public func `do`(
    onNext: (@Sendable (Element) throws -> Void)? = nil,
    onError: (@Sendable (any Error) -> Void)? = nil,
    onCompleted: (@Sendable () -> Void)? = nil
  ) -> Observable<Element> {
    Observable.create { observer in
      self.subscribe { event in
        switch event {
        case .next(let element):
          do {
            try onNext?(element)
            observer.onNext(element)
          } catch {
            observer.onError(error)
          }
        case .error(let error):
          onError?(error)
          observer.onError(error)
        case .completed:
          onCompleted?()
          observer.onCompleted()
        }
      }
    }
  }
}
