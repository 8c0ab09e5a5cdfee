/// Errors raised by the reactive core itself.
public enum ReactiveError: Error, Equatable, CustomStringConvertible {
  /// A blocking call waited longer than its timeout.
  case timeout(Duration)
  /// A sequence that had to produce an element completed without one.
  case noElements
  /// A sequence that had to produce exactly one element produced more.
  case moreThanOneElement

  public var description: String {
    switch self {
    case .timeout(let duration): "timed out after \(duration)"
    case .noElements: "the sequence completed without an element"
    case .moreThanOneElement: "the sequence produced more than one element"
    }
  }
}
