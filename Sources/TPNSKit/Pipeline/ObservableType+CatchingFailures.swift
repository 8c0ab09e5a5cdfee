import Reactive
import TPNSProtocol

extension ObservableType where Element == Outcome {
  /// Turns an error into a `failed` outcome and completes: errors are values here.
  ///
  ///     environment.request(.event(uid: uid, type: 1)) { … }.catchingFailures(.event)
  public func catchingFailures(_ command: CommandName? = nil) -> Observable<Outcome> {
    materialize().compactMap { event -> Outcome? in
      switch event {
      case .next(let outcome): return outcome
      case .error(let error as PipelineFailure): return .failed(error)
      case .error(let error as RequestFailure):
        return .failed(.request(command ?? .client, error))
      case .error(let error as StoreError): return .failed(.store(error))
      case .error(let error):
        return .failed(.request(command ?? .client, .transport(.failed(reason: "\(error)"))))
      case .completed: return nil
      }
    }
  }
}
