/// A sequence of events defined by what it does when subscribed to (``create(_:)``,
/// which says how it holds the producer to the observer contract).
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
