/// A sequence of events defined by what it does when subscribed to (``create(_:)``).
///
/// Every subscription goes through a sink that enforces the observer contract:
/// nothing is delivered after an error or completion, and the end of the
/// sequence (or disposal) disposes the upstream subscription.
public struct Observable<Element: Sendable>: ObservableType {
  let subscribeHandler: @Sendable (AnyObserver<Element>) -> any Disposable

  public func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    let sink = ObserverSink(observer)
    sink.setUpstream(subscribeHandler(sink.asObserver()))
    return sink
  }

  public func asObservable() -> Observable<Element> {
    self
  }
}
