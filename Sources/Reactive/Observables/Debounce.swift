extension ObservableType {
  /// Sends an element only once `dueTime` has passed on `scheduler`'s clock
  /// without a newer one; a burst becomes its last element.
  ///
  /// Completion first sends the element still waiting, if any; an error drops it.
  ///
  ///     storeChanges.debounce(.milliseconds(200), scheduler: scheduler)
  public func debounce(
    _ dueTime: Duration, scheduler: some SchedulerType
  ) -> Observable<Element> {
    Observable.create { downstream in
      let observer = SerializedObserver(downstream)
      let timer = SerialDisposable()
      let pending = LockedState<(id: UInt64, element: Element?)>((0, nil))

      let subscription = self.subscribe { event in
        switch event {
        case .next(let element):
          let id = pending.withLock { pending in
            pending = (pending.id + 1, element)
            return pending.id
          }
          timer.setDisposable(
            scheduler.schedule(after: dueTime) {
              let due = pending.withLock { pending -> Element? in
                guard pending.id == id else { return nil }
                defer { pending.element = nil }
                return pending.element
              }
              if let due { observer.onNext(due) }
            })
        case .error(let error):
          timer.dispose()
          pending.withLock { $0.element = nil }
          observer.onError(error)
        case .completed:
          timer.dispose()
          let last = pending.withLock { pending in
            defer { pending.element = nil }
            return pending.element
          }
          if let last { observer.onNext(last) }
          observer.onCompleted()
        }
      }
      return Disposables.create(subscription, timer)
    }
  }
}
