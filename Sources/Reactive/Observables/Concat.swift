extension ObservableType {
  /// Sends this sequence's elements, then those of `next`, subscribed to only
  /// once this one has completed (never after a failure).
  ///
  ///     register().concat(Observable.deferred { sync() })  // syncs only once registered
  public func concat(_ next: some ObservableType<Element>) -> Observable<Element> {
    switching { event in
      guard case .completed = event else { return nil }
      return next.asObservable()
    }
  }

  /// Continues with the sequence `handler` returns for an error instead of
  /// failing; a handler that throws ends the result with its error.
  ///
  ///     mapsync.catch { error in isNotRegistered(error) ? registerThenSync : .error(error) }
  public func `catch`(
    _ handler: @escaping @Sendable (any Error) throws -> Observable<Element>
  ) -> Observable<Element> {
    switching { event in try event.error.map(handler) }
  }

  /// Passes on this sequence's events until `next` makes a sequence of one
  /// (which is not passed on), then that sequence's; an error `next` throws
  /// ends the result.
  private func switching(
    to next: @escaping @Sendable (Event<Element>) throws -> Observable<Element>?
  ) -> Observable<Element> {
    Observable.create { observer in
      let current = SerialDisposable()
      let first = SingleAssignmentDisposable()
      current.setDisposable(first)
      first.setDisposable(
        self.asObservable().subscribe { event in
          do {
            guard let following = try next(event) else { return observer.on(event) }
            current.setDisposable(following.subscribe(observer))
          } catch {
            observer.onError(error)
          }
        })
      return current
    }
  }

  /// Sends `elements` first, then subscribes to this sequence.
  ///
  ///     list.startWith([])  // the table starts empty
  public func startWith(_ elements: Element...) -> Observable<Element> {
    Observable.from(elements).concat(self)
  }
}
