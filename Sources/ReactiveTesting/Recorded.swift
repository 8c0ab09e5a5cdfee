import Reactive

/// A value recorded at a virtual time: an event a test observable sends or a
/// test observer received.
///
///     let expected: [Recorded<Event<Int>>] = [.next(210, 2), .completed(300)]
public struct Recorded<Value> {
  /// When it happened, in ticks.
  public let time: TestTime
  /// What happened.
  public let value: Value

  /// A value at `time`.
  public init(time: TestTime, value: Value) {
    self.time = time
    self.value = value
  }
}

extension Recorded: Sendable where Value: Sendable {}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded: CustomStringConvertible {
  public var description: String {
    "\(value) @ \(time)"
  }
}

extension Recorded {
  /// `.next(element)` at `time`.
  public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded
  where Value == Event<Element> {
    Recorded(time: time, value: .next(element))
  }

  /// `.completed` at `time`.
  public static func completed<Element>(
    _ time: TestTime, _ type: Element.Type = Element.self
  ) -> Recorded where Value == Event<Element> {
    Recorded(time: time, value: .completed)
  }

  /// `.error(error)` at `time`.
  public static func error<Element>(
    _ time: TestTime, _ error: any Error, _ type: Element.Type = Element.self
  ) -> Recorded where Value == Event<Element> {
    Recorded(time: time, value: .error(error))
  }
}
