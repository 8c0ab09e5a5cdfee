/// A ``Subject`` without a value: later subscribers see later events only;
/// after an error or completion they get that stop event at once.
///
///     let taps = PublishSubject<Void>()
///     taps.subscribe(onNext: { print("tap") }).disposed(by: bag)
///     taps.onNext(())
public final class PublishSubject<Element: Sendable>: Subject<Element>, @unchecked Sendable {
  /// A subject with no observers.
  public init() {
    super.init(replaying: nil)
  }
}
