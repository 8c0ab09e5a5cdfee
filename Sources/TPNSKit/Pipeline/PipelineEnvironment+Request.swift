import Reactive
import TPNSProtocol

extension PipelineEnvironment {
  /// Sends `request` with the retry policy, waiting on the scheduler: a
  /// `retrying` outcome before each new attempt, then what `onSuccess` makes of
  /// the response; the last failure ends the sequence as a ``RequestFailure``.
  /// The policy's time limit is counted on the scheduler's clock from the
  /// subscription, cut to what is left before the ``deadline``, and each
  /// attempt is given only the time left.
  ///
  ///     environment.request(.event(uid: uid, type: 1)) { .sent(.event, response: $0.body) }
  public func request(
    _ request: TPNSRequest, idempotent: Bool = true,
    onSuccess: @escaping @Sendable (HTTPResponse) throws -> Outcome
  ) -> Observable<Outcome> {
    let retryPolicy = retryPolicy
    let deadline = deadline
    let scheduler = scheduler
    let send = server.send
    return Observable<Outcome>.create { observer in
      let start = scheduler.now
      var budgeted = retryPolicy
      if let deadline {
        let left = max(deadline - start, .zero)
        budgeted.timeLimit = min(budgeted.timeLimit ?? left, left)
      }
      let policy = budgeted
      return Observable.deferred {
        send(request, policy.remainingTime(elapsed: scheduler.now - start))
      }
      .map { try onSuccess($0) }
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
      .subscribe(observer)
    }
  }
}
