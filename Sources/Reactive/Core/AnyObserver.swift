/// A type-erased observer: forwards every event to a closure.
///
///     let observer = AnyObserver<Int> { event in print(event) }
public struct AnyObserver<Element: Sendable>: ObserverType {
  private let eventHandler: @Sendable (Event<Element>) -> Void

  /// An observer that calls `eventHandler` for each event.
  public init(eventHandler: @escaping @Sendable (Event<Element>) -> Void) {
    self.eventHandler = eventHandler
  }

  /// An observer that forwards to `observer`.
  public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
    // A metatype comparison, not `as?`: a dynamic cast from a class to a
    // struct makes the runtime scan every conformance record in the binary.
    if Observer.self == AnyObserver<Element>.self {
      self = unsafeBitCast(observer, to: AnyObserver<Element>.self)
    } else {
      eventHandler = observer.on
    }
  }

  public func on(_ event: Event<Element>) {
    eventHandler(event)
  }
}
