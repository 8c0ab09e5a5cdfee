import Locking

/// Holds a disposable that is set once, possibly after this one was disposed
/// (it is then disposed at once). Lets a subscription be handed out before the
/// work it stands for has started.
public final class SingleAssignmentDisposable: Disposable {
  private struct State {
    var isDisposed = false
    var isSet = false
    var disposable: (any Disposable)?
  }

  private let state = LockedState(State())

  /// An empty holder.
  public init() {}

  /// Whether `dispose()` was called.
  public var isDisposed: Bool {
    state.withLock { $0.isDisposed }
  }

  /// Sets the held disposable; a second call is a programming error.
  public func setDisposable(_ disposable: any Disposable) {
    let disposeNow = state.withLock { state in
      precondition(!state.isSet, "SingleAssignmentDisposable set twice")
      state.isSet = true
      if state.isDisposed { return true }
      state.disposable = disposable
      return false
    }
    if disposeNow { disposable.dispose() }
  }

  public func dispose() {
    let disposable = state.withLock { state -> (any Disposable)? in
      guard !state.isDisposed else { return nil }
      state.isDisposed = true
      defer { state.disposable = nil }
      return state.disposable
    }
    disposable?.dispose()
  }
}
