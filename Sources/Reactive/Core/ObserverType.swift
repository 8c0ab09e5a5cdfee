/// Receives a sequence's events, one at a time: any number of `.next`, then
/// at most one `.error` or `.completed`.
public protocol ObserverType<Element>: Sendable {
  /// The type of the elements received.
  associatedtype Element: Sendable

  /// Receives one event.
  func on(_ event: Event<Element>)
}

extension ObserverType {
  /// Sends `.next(element)`.
  public func onNext(_ element: Element) {
    on(.next(element))
  }

  /// Sends `.error(error)`.
  public func onError(_ error: any Error) {
    on(.error(error))
  }

  /// Sends `.completed`.
  public func onCompleted() {
    on(.completed)
  }

  /// This observer behind a type-erased ``AnyObserver``.
  public func asObserver() -> AnyObserver<Element> {
    AnyObserver(self)
  }
}
