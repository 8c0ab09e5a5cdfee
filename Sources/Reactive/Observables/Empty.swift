extension Observable {
  /// Completion, with no element.
  public static func empty() -> Observable<Element> {
    from([])
  }
}
