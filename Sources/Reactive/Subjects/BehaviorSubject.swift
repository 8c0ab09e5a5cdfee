/// A subject that holds a current value: a new subscriber gets it at once,
/// then every later event. (The quickstart's `rx_deviceToken`.)
///
/// Delivery is serialised as in ``PublishSubject``.
///
///     let token = BehaviorSubject(value: "")
///     token.onNext("0123…")
///     try token.value()  // "0123…"
public final class BehaviorSubject<Element: Sendable>: ObservableType, ObserverType {
  private let core: SubjectCore<Element>

  /// A subject whose current value is `value`.
  public init(value: Element) {
    core = SubjectCore(replaying: value)
  }

  /// The current value; throws the error the subject ended with, if any.
  public func value() throws -> Element {
    let (latest, stopEvent) = core.summary.withLock { ($0.latest, $0.stopEvent) }
    if let error = stopEvent?.error { throw error }
    guard let latest else { preconditionFailure("a BehaviorSubject always has a value") }
    return latest
  }

  /// Whether anyone is subscribed.
  public var hasObservers: Bool { core.hasObservers }

  /// Whether the subject received an error or completion.
  public var isStopped: Bool { core.isStopped }

  public func on(_ event: Event<Element>) {
    core.on(event)
  }

  public func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    core.subscribe(observer)
  }
}
