extension Observable {
  /// An immediate error, with no element.
  ///
  ///     Observable<Int>.error(TransportError.timeout)  // error(timeout)
  public static func error(_ error: any Error) -> Observable<Element> {
    create { observer in
      observer.onError(error)
      return Disposables.create()
    }
  }
}
