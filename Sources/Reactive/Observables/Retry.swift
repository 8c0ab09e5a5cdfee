import Locking

/// What `retry(on:_:)` does after a failed attempt.
public enum RetryDecision: Sendable {
  /// Subscribe again once `delay` has passed on the scheduler's clock.
  case retry(after: Duration)
  /// End the sequence with this error (the attempt's, or a clearer one).
  case fail(any Error)
}

extension ObservableType {
  /// Resubscribes to this sequence after it fails, as often and as late as
  /// `decide` says, given the error and the number of the failed attempt (1
  /// for the first); an attempt's elements are not undone by its failure.
  ///
  ///     request.retry(on: scheduler) { error, attempt in
  ///       attempt < 3 ? .retry(after: .seconds(1)) : .fail(error)
  ///     }
  public func retry(
    on scheduler: some SchedulerType,
    _ decide: @escaping @Sendable (_ error: any Error, _ attempt: Int) -> RetryDecision
  ) -> Observable<Element> {
    Observable.create { observer in
      let attempt = RetryAttempts(source: self, scheduler: scheduler, observer: observer, decide)
      attempt.subscribe()
      // Holds the attempts (the timer only refers to them weakly) until disposal.
      return Disposables.create { attempt.current.dispose() }
    }
  }

  /// Makes at most `maxAttempts` attempts in all, waiting `delay(n)` after the
  /// n-th failure; after the last one, fails with its error.
  ///
  ///     request.retry(maxAttempts: 3, on: scheduler) { .milliseconds(500 << ($0 - 1)) }
  public func retry(
    maxAttempts: Int,
    on scheduler: some SchedulerType,
    delay: @escaping @Sendable (_ attempt: Int) -> Duration
  ) -> Observable<Element> {
    precondition(maxAttempts >= 1, "retry needs at least one attempt")
    return retry(on: scheduler) { error, attempt in
      attempt < maxAttempts ? .retry(after: delay(attempt)) : .fail(error)
    }
  }
}

/// One `retry` subscription: the current attempt, or the wait before the next.
private final class RetryAttempts<Source: ObservableType, Scheduler: SchedulerType>: Sendable {
  let current = SerialDisposable()
  private let source: Source
  private let scheduler: Scheduler
  private let observer: AnyObserver<Source.Element>
  private let decide: @Sendable (any Error, Int) -> RetryDecision
  private let failures = LockedState(0)

  init(
    source: Source, scheduler: Scheduler, observer: AnyObserver<Source.Element>,
    _ decide: @escaping @Sendable (any Error, Int) -> RetryDecision
  ) {
    self.source = source
    self.scheduler = scheduler
    self.observer = observer
    self.decide = decide
  }

  func subscribe() {
    // A wait that ended just as the subscription was disposed starts nothing.
    guard !current.isDisposed else { return }
    let attempt = SingleAssignmentDisposable()
    current.setDisposable(attempt)
    attempt.setDisposable(
      source.subscribe { [self] event in
        guard case .error(let error) = event else { return observer.on(event) }
        let failed = failures.withLock { failures in
          failures += 1
          return failures
        }
        switch decide(error, failed) {
        case .retry(let delay):
          // Weak: a cancelled wait must not keep this alive until it would have fired.
          current.setDisposable(
            scheduler.schedule(after: delay) { [weak self] in self?.subscribe() })
        case .fail(let finalError):
          observer.onError(finalError)
        }
      })
  }
}
