/// A value that is only ever read or changed while holding its own ``Lock``.
///
///     let count = LockedState(0)
///     count.withLock { $0 += 1 }
public final class LockedState<State>: @unchecked Sendable {
  // @unchecked: `state` is only touched inside `withLock`.
  private let lock = Lock()
  private var state: State

  /// Wraps `initialState`.
  public init(_ initialState: State) {
    state = initialState
  }

  /// Runs `body` with exclusive access to the state.
  public func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try lock.withLock { () throws(Failure) -> Result in try body(&state) }
  }

  /// A copy of the current state.
  public var value: State {
    withLock { $0 }
  }
}
