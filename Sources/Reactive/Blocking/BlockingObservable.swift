import Dispatch
import Locking

/// A sequence read by blocking the calling thread until it ends or a timeout
/// passes (RxBlocking), for one-shot callers such as a command-line `main`.
/// Never on the thread or serial queue the sequence delivers on: that would
/// wait forever.
///
///     let outcome = try pipeline.outcomes.toBlocking(timeout: .seconds(60)).first()
public struct BlockingObservable<Element: Sendable>: Sendable {
  let source: Observable<Element>
  let timeout: Duration?
  let runLoop: RunLoopScheduler?

  /// The first element, or `nil` if the sequence completes without one; each
  /// of these throws the sequence's error or ``ReactiveError/timeout(_:)``.
  public func first() throws -> Element? {
    try run(stopAfterFirst: true).first
  }

  /// The last element, or `nil` if the sequence completes without one.
  public func last() throws -> Element? {
    try run(stopAfterFirst: false).last
  }

  /// Every element, once the sequence has completed.
  public func toArray() throws -> [Element] {
    try run(stopAfterFirst: false)
  }

  /// The one element of a sequence that must have exactly one.
  public func single() throws -> Element {
    let elements = try run(stopAfterFirst: false)
    guard let element = elements.first else { throw ReactiveError.noElements }
    guard elements.count == 1 else { throw ReactiveError.moreThanOneElement }
    return element
  }

  private func run(stopAfterFirst: Bool) throws -> [Element] {
    let finished = DispatchSemaphore(value: 0)
    let state = LockedState<(elements: [Element], error: (any Error)?, isDone: Bool)>(
      ([], nil, false))
    let subscription = source.subscribe { event in
      let signal = state.withLock { state -> Bool in
        guard !state.isDone else { return false }
        switch event {
        case .next(let element):
          state.elements.append(element)
          state.isDone = stopAfterFirst
        case .error(let error):
          state.error = error
          state.isDone = true
        case .completed:
          state.isDone = true
        }
        return state.isDone
      }
      if signal {
        finished.signal()
        runLoop?.wake()
      }
    }
    defer { subscription.dispose() }

    let isDone =
      if let runLoop {
        // This thread runs the work while it waits.
        runLoop.run(until: { state.value.isDone }, timeout: timeout)
      } else {
        finished.wait(timeout: timeout.map { .now() + $0.dispatchInterval } ?? .distantFuture)
          == .success
      }
    guard isDone else { throw ReactiveError.timeout(timeout ?? .zero) }
    let (elements, error, _) = state.value
    if let error { throw error }
    return elements
  }
}

extension ObservableType {
  /// This sequence read by blocking the calling thread, for at most `timeout`;
  /// with a `runLoop`, the waiting thread runs its actions meanwhile.
  public func toBlocking(
    timeout: Duration? = nil, on runLoop: RunLoopScheduler? = nil
  ) -> BlockingObservable<Element> {
    BlockingObservable(source: asObservable(), timeout: timeout, runLoop: runLoop)
  }
}
