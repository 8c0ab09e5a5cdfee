extension ObservableType {
  /// Subscribes to this sequence, and disposes that subscription, on `scheduler`.
  ///
  ///     Observable.deferred { .just(try store.load()) }.subscribe(on: ioScheduler)
  public func subscribe(on scheduler: some SchedulerType) -> Observable<Element> {
    Observable.create { observer in
      let subscription = SingleAssignmentDisposable()
      let scheduled = scheduler.schedule {
        subscription.setDisposable(self.subscribe(observer))
      }
      return Disposables.create {
        scheduled.dispose()
        scheduler.schedule { subscription.dispose() }
      }
    }
  }
}
