import Locking

extension ObservableType {
  /// Delivers every event on `scheduler`, in the order sent (one scheduled
  /// action drains a queue, so on any scheduler); disposing drops the rest.
  ///
  ///     outcomes.observe(on: mainScheduler).subscribe(onNext: print)
  public func observe(on scheduler: some SchedulerType) -> Observable<Element> {
    Observable.create { observer in
      let queue = LockedState<(events: [Event<Element>], isScheduled: Bool, isDisposed: Bool)>(
        ([], false, false))
      @Sendable func next() -> Event<Element>? {
        queue.withLock { queue in
          guard !queue.isDisposed, !queue.events.isEmpty else {
            queue.isScheduled = false
            return nil
          }
          return queue.events.removeFirst()
        }
      }
      let subscription = self.subscribe { event in
        let needsDrain = queue.withLock { queue -> Bool in
          guard !queue.isDisposed else { return false }
          queue.events.append(event)
          defer { queue.isScheduled = true }
          return !queue.isScheduled
        }
        // Not cancelled on disposal: the drain finds `isDisposed` and returns.
        if needsDrain { scheduler.schedule { while let event = next() { observer.on(event) } } }
      }
      return Disposables.create(
        subscription,
        Disposables.create {
          queue.withLock { queue in
            queue.isDisposed = true
            queue.events = []
          }
        })
    }
  }
}
