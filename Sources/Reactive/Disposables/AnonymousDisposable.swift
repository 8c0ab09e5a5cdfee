import Locking

/// Runs an action once, on the first `dispose()`.
final class AnonymousDisposable: Disposable {
  private let action: LockedState<(@Sendable () -> Void)?>

  init(_ action: @escaping @Sendable () -> Void) {
    self.action = LockedState(action)
  }

  func dispose() {
    let action = action.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }
}
