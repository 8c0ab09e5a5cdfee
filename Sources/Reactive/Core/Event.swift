/// One event of a sequence: an element, or its end (an error or completion).
public enum Event<Element: Sendable>: Sendable {
  /// The next element.
  case next(Element)
  /// The sequence failed; this ends it.
  case error(any Error)
  /// The sequence finished; this ends it.
  case completed

  /// Whether this event ends the sequence.
  public var isStopEvent: Bool {
    switch self {
    case .next: false
    case .error, .completed: true
    }
  }

  /// The element of a `.next` event.
  public var element: Element? {
    if case .next(let element) = self { return element }
    return nil
  }

  /// The error of an `.error` event.
  public var error: (any Error)? {
    if case .error(let error) = self { return error }
    return nil
  }
}

extension Event: CustomStringConvertible {
  public var description: String {
    switch self {
    case .next(let element): "next(\(element))"
    case .error(let error): "error(\(error))"
    case .completed: "completed"
    }
  }
}

extension Event: Equatable where Element: Equatable {
  /// Elements compare with `==`; errors are equal when they have the same type
  /// and the same description (errors are not `Equatable` in general).
  public static func == (lhs: Event, rhs: Event) -> Bool {
    switch (lhs, rhs) {
    case (.next(let left), .next(let right)): left == right
    case (.error(let left), .error(let right)):
      type(of: left) == type(of: right) && String(reflecting: left) == String(reflecting: right)
    case (.completed, .completed): true
    default: false
    }
  }
}
