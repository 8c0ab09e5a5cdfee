/// A ``Subject`` that holds a current value: a new subscriber gets it at once,
/// then every later event. (The quickstart's `rx_deviceToken`.)
///
///     let token = BehaviorSubject(value: "")
///     token.onNext("0123…")
///     try token.value()  // "0123…"
public final class BehaviorSubject<Element: Sendable>: Subject<Element>, @unchecked Sendable {
  /// A subject whose current value is `value`.
  public init(value: Element) {
    super.init(replaying: value)
  }

  /// The current value; throws the error the subject ended with, if any.
  public func value() throws -> Element {
    let (latest, stopEvent) = summary.withLock { ($0.latest, $0.stopEvent) }
    if let error = stopEvent?.error { throw error }
    guard let latest else { preconditionFailure("a BehaviorSubject always has a value") }
    return latest
  }
}
