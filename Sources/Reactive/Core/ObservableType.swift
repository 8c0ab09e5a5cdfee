/// A sequence of events over time that observers subscribe to. Every operator
/// is an extension on it, so subjects and test observables compose like any other.
public protocol ObservableType<Element>: Sendable {
  /// The type of the elements produced.
  associatedtype Element: Sendable

  /// Delivers events to `observer` until the result is disposed or the sequence ends.
  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable

  /// This sequence as an ``Observable``.
  func asObservable() -> Observable<Element>
}

extension ObservableType {
  public func asObservable() -> Observable<Element> {
    Observable.create { observer in self.subscribe(observer) }
  }

  /// Subscribes any observer.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subscribe(AnyObserver(observer))
  }

  /// Subscribes a closure that receives every event.
  public func subscribe(
    _ on: @escaping @Sendable (Event<Element>) -> Void
  ) -> any Disposable {
    subscribe(AnyObserver(eventHandler: on))
  }

  /// Subscribes closures for each kind of event; `onDisposed` runs once, when
  /// the subscription ends for any reason.
  ///
  ///     numbers.subscribe(onNext: { print($0) }).disposed(by: bag)
  public func subscribe(
    onNext: (@Sendable (Element) -> Void)? = nil,
    onError: (@Sendable (any Error) -> Void)? = nil,
    onCompleted: (@Sendable () -> Void)? = nil,
    onDisposed: (@Sendable () -> Void)? = nil
  ) -> any Disposable {
    let disposed = Disposables.create { onDisposed?() }
    let subscription = subscribe { event in
      switch event {
      case .next(let element): onNext?(element)
      case .error(let error):
        onError?(error)
        disposed.dispose()
      case .completed:
        onCompleted?()
        disposed.dispose()
      }
    }
    return Disposables.create(subscription, disposed)
  }
}
