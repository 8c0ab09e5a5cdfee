import Locking

/// Factories for the common disposables.
public enum Disposables {
  /// A disposable that does nothing.
  public static func create() -> any Disposable {
    NopDisposable()
  }

  /// A disposable that runs `action` once, on the first `dispose()`.
  public static func create(with action: @escaping @Sendable () -> Void) -> any Disposable {
    AnonymousDisposable(action: LockedState(action))
  }

  /// A disposable that disposes all of `disposables`, in order.
  public static func create(_ disposables: any Disposable...) -> any Disposable {
    CompositeDisposable(disposables)
  }
}

private struct NopDisposable: Disposable {
  func dispose() {}
}

private struct AnonymousDisposable: Disposable {
  let action: LockedState<(@Sendable () -> Void)?>

  func dispose() {
    let action = action.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }
}
