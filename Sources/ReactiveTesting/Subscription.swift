/// When a test observable was subscribed to and when that subscription was
/// disposed (`TestTime.max` if it never was).
///
///     #expect(xs.subscriptions == [Subscription(200, 300)])
public struct Subscription: Hashable, Sendable {
  /// When the subscription started.
  public let subscribe: TestTime
  /// When it was disposed.
  public let unsubscribe: TestTime

  /// A subscription from `subscribe` to `unsubscribe`.
  public init(_ subscribe: TestTime, _ unsubscribe: TestTime = .max) {
    self.subscribe = subscribe
    self.unsubscribe = unsubscribe
  }
}

extension Subscription: CustomStringConvertible {
  public var description: String {
    unsubscribe == .max ? "(\(subscribe), ∞)" : "(\(subscribe), \(unsubscribe))"
  }
}
