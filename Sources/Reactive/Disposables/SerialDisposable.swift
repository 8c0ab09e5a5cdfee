import Locking

/// Holds one disposable at a time: setting a new one disposes the previous;
/// once this is disposed, whatever is set is disposed at once.
public final class SerialDisposable: Disposable {
  private let state = LockedState<(isDisposed: Bool, current: (any Disposable)?)>((false, nil))

  /// An empty holder.
  public init() {}

  /// Whether `dispose()` was called.
  public var isDisposed: Bool {
    state.withLock { $0.isDisposed }
  }

  /// Replaces the held disposable, disposing the one it replaces.
  public func setDisposable(_ disposable: any Disposable) {
    let previous = state.withLock { state -> (any Disposable)? in
      if state.isDisposed { return disposable }
      defer { state.current = disposable }
      return state.current
    }
    previous?.dispose()
  }

  public func dispose() {
    let current = state.withLock { state -> (any Disposable)? in
      guard !state.isDisposed else { return nil }
      state.isDisposed = true
      defer { state.current = nil }
      return state.current
    }
    current?.dispose()
  }
}
