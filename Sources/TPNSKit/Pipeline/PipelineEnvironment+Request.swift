import Locking
import Reactive
import TPNSProtocol

extension PipelineEnvironment {
  /// Sends `request` with the retry policy on the scheduler (its clock counts the time
  /// limit, cut to the ``deadline``): a `retrying` outcome before each new attempt,
  /// then what `onSuccess` makes of the response; the last failure ends the sequence
  /// as a ``RequestFailure``. Once `abandon` sends, no further attempt is made; one
  /// already sent is let finish, and its success handled: the server may act on it.
  ///
  ///     environment.request(.event(uid: uid, type: 1)) { .sent(.event, response: $0.body) }
  public func request(
    _ request: TPNSRequest, idempotent: Bool = true, abandon: Observable<Void> = .never(),
    onSuccess: @escaping @Sendable (HTTPResponse) throws -> Outcome
  ) -> Observable<Outcome> {
    Observable<Outcome>.create { observer in
      let start = scheduler.now
      var budgeted = retryPolicy
      if let deadline {
        let left = max(deadline - start, .zero)
        budgeted.timeLimit = min(budgeted.timeLimit ?? left, left)
      }
      let policy = budgeted
      let abandonment = Abandonment()
      let attempt = Observable.deferred {
        abandonment.attemptStarts()
        return server.send(request, policy.remainingTime(elapsed: scheduler.now - start))
      }
      // Before the retry sees a failure: an abandoned request is not retried.
      .do(onError: { _ in abandonment.attemptEnds() }, onCompleted: { abandonment.attemptEnds() })
      let attempts = attempt.map { try onSuccess($0) }
        .retry(on: scheduler) { error, attempt in
          guard let failure = error as? RequestFailure else { return .fail(error) }
          let decision = policy.decide(
            failure, attempt: attempt, idempotent: idempotent, elapsed: scheduler.now - start)
          if case .retry(let delay) = decision {
            observer.onNext(
              .retrying(
                request.name, attempt: attempt + 1, of: policy.maxAttempts, delay: delay,
                reason: failure.description))
          }
          return decision
        }
        .take(until: abandonment.stops)
      let abandoning = abandon.take(1).subscribe(onNext: { abandonment.abandon() })
      return Disposables.create(attempts.subscribe(observer), abandoning)
    }
  }
}

/// Whether a request was abandoned and an attempt of it is on the wire;
/// ``stops`` sends when it should end: abandoned while no attempt is sent,
/// or when the attempt sent meanwhile ends.
private struct Abandonment: Sendable {
  let stops = PublishSubject<Void>()
  private let state = LockedState((abandoned: false, sending: false))

  func attemptStarts() {
    state.withLock { $0.sending = true }
  }

  func attemptEnds() {
    let stop = state.withLock { state in
      state.sending = false
      return state.abandoned
    }
    if stop { stops.onNext(()) }
  }

  func abandon() {
    let stop = state.withLock { state in
      state.abandoned = true
      return !state.sending
    }
    if stop { stops.onNext(()) }
  }
}
