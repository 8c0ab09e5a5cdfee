import Locking

/// Owns subscriptions and disposes them all when it is deinitialised (or
/// `dispose()` is called), tying their lifetime to an owner's.
///
///     let bag = DisposeBag()
///     subject.subscribe(onNext: { print($0) }).disposed(by: bag)
public final class DisposeBag: Disposable {
  private let members = LockedState<[any Disposable]?>([])

  /// An empty bag.
  public init() {}

  deinit {
    dispose()
  }

  /// Adds a disposable; a bag already disposed disposes it at once.
  public func insert(_ disposable: any Disposable) {
    let accepted = members.withLock { members -> Bool in
      guard members != nil else { return false }
      members?.append(disposable)
      return true
    }
    if !accepted { disposable.dispose() }
  }

  /// Disposes every member; later insertions are disposed at once.
  public func dispose() {
    let taken = members.withLock { members in
      defer { members = nil }
      return members ?? []
    }
    for disposable in taken { disposable.dispose() }
  }
}
