extension Observable {
  /// Completion, with no element.
  public static func empty() -> Observable<Element> {
    create { observer in
      observer.onCompleted()
      return Disposables.create()
    }
  }
}
