/// Both an observer and an observable: every event it receives is sent to
/// the observers subscribed at that moment. Later subscribers see later
/// events only; after an error or completion they get that stop event at once.
///
/// It may be fed from any thread: events are delivered one at a time, in the
/// order received, and an event sent by an observer while it handles another
/// is delivered after that one, to every observer.
///
///     let taps = PublishSubject<Void>()
///     taps.subscribe(onNext: { print("tap") }).disposed(by: bag)
///     taps.onNext(())
public final class PublishSubject<Element: Sendable>: ObservableType, ObserverType {
  private let core = SubjectCore<Element>(replaying: nil)

  /// A subject with no observers.
  public init() {}

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
