/// A resource that can be released: a subscription, a scheduled action.
///
/// Disposing is idempotent and may be called from any thread.
public protocol Disposable: Sendable {
  /// Releases the resource. Calling it again does nothing.
  func dispose()
}
