/// A sequence of events defined by what it does when subscribed to.
///
/// Every subscription goes through a sink that enforces the observer contract:
/// nothing is delivered after an error or completion, and the end of the
/// sequence (or disposal) disposes the upstream subscription.
///
///     let ticks = Observable<Int>.create { observer in
///       observer.onNext(1)
///       observer.onCompleted()
///       return Disposables.create()
///     }
public struct Observable<Element: Sendable>: ObservableType {
  /// What a subscription does: starts producing to the observer and returns
  /// the disposable that stops it.
  public typealias SubscribeHandler = @Sendable (AnyObserver<Element>) -> any Disposable

  private let subscribeHandler: SubscribeHandler

  init(_ subscribeHandler: @escaping SubscribeHandler) {
    self.subscribeHandler = subscribeHandler
  }

  public func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    let sink = ObserverSink(observer)
    sink.setUpstream(subscribeHandler(sink.asObserver()))
    return sink
  }

  public func asObservable() -> Observable<Element> {
    self
  }
}
