extension Observable {
  /// A sequence that never sends anything, not even completion.
  public static func never() -> Observable<Element> {
    create { _ in Disposables.create() }
  }
}
