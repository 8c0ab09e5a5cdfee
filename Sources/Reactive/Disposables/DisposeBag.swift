/// Owns subscriptions and disposes them all, in order, when it is
/// deinitialised (or `dispose()` is called), tying their lifetime to an owner's.
///
///     let bag = DisposeBag()
///     subject.subscribe(onNext: { print($0) }).disposed(by: bag)
public final class DisposeBag: Disposable {
  private let members = CompositeDisposable()

  /// An empty bag.
  public init() {}

  deinit {
    members.dispose()
  }

  /// Adds a disposable; a bag already disposed disposes it at once.
  public func insert(_ disposable: any Disposable) {
    members.insert(disposable)
  }

  /// Disposes every member; later insertions are disposed at once.
  public func dispose() {
    members.dispose()
  }
}
