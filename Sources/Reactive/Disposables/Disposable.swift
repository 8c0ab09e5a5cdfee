/// A resource that can be released, from any thread: a subscription, a scheduled action.
public protocol Disposable: Sendable {
  /// Releases the resource. Calling it again does nothing.
  func dispose()
}

extension Disposable {
  /// Adds this disposable to `bag`, which disposes it when the bag goes away.
  ///
  ///     subject.subscribe(onNext: { print($0) }).disposed(by: bag)
  public func disposed(by bag: DisposeBag) {
    bag.insert(self)
  }
}
