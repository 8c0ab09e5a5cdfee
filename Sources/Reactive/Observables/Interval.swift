extension Observable where Element == Int {
  /// Sends 0, 1, 2, … every `period` on `scheduler`'s clock, never completing.
  ///
  ///     Observable.interval(.seconds(60), scheduler: scheduler)  // watch's periodic retry
  public static func interval(_ period: Duration, scheduler: some SchedulerType) -> Observable<Int>
  {
    precondition(period > .zero, "an interval needs a positive period")
    return create { observer in
      let timer = SerialDisposable()
      @Sendable func schedule(_ count: Int) {
        timer.setDisposable(
          scheduler.schedule(after: period) {
            observer.onNext(count)
            schedule(count + 1)
          })
      }
      schedule(0)
      return timer
    }
  }
}
