import Locking

/// A disposable that only records whether it was disposed: a cancellation flag.
public final class BooleanDisposable: Disposable {
  private let disposed = LockedState(false)

  /// A flag that is not yet set.
  public init() {}

  /// Whether `dispose()` was called.
  public var isDisposed: Bool {
    disposed.value
  }

  public func dispose() {
    disposed.withLock { $0 = true }
  }
}
