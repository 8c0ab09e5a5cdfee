import Locking

/// Holds a disposable that is set once, possibly after this one was disposed
/// (it is then disposed at once): a subscription handed out before the work
/// it stands for has started.
public final class SingleAssignmentDisposable: Disposable {
  private let held = SerialDisposable()
  private let isSet = LockedState(false)

  /// An empty holder.
  public init() {}

  /// Whether `dispose()` was called.
  public var isDisposed: Bool { held.isDisposed }

  /// Sets the held disposable; a second call is a programming error.
  public func setDisposable(_ disposable: any Disposable) {
    let wasSet = isSet.withLock { isSet in
      defer { isSet = true }
      return isSet
    }
    precondition(!wasSet, "SingleAssignmentDisposable set twice")
    held.setDisposable(disposable)
  }

  public func dispose() {
    held.dispose()
  }
}
