extension Observable where Element == Int {
  /// Sends 0, 1, 2, … every `period` on `scheduler`'s clock, never completing.
  ///
  ///     Observable.interval(.seconds(60), scheduler: scheduler)  // watch's periodic retry
  public static func interval(_ period: Duration, scheduler: some SchedulerType) -> Observable<Int>
  {
    precondition(period > .zero, "an interval needs a positive period")
    return create { observer in
      let timer = SerialDisposable()
      let ticker = IntervalTicker(
        period: period, scheduler: scheduler, observer: observer, timer: timer)
      ticker.scheduleNext(0)
      return timer
    }
  }
}

/// Schedules the next tick of one `interval` subscription.
private struct IntervalTicker<Scheduler: SchedulerType>: Sendable {
  let period: Duration
  let scheduler: Scheduler
  let observer: AnyObserver<Int>
  let timer: SerialDisposable

  func scheduleNext(_ count: Int) {
    timer.setDisposable(
      scheduler.schedule(after: period) {
        observer.onNext(count)
        scheduleNext(count + 1)
      })
  }
}
