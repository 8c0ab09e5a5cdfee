import Locking

/// Stands between a producer and its observer for one subscription: drops
/// events after the sequence ended or was disposed, and disposes the producer
/// once it has ended. The producer's disposable may arrive after the end
/// (a producer that completes while being subscribed); it is disposed then.
final class ObserverSink<Element: Sendable>: ObserverType, Disposable {
  private struct State {
    var isStopped = false
    var isDisposed = false
    var upstream: (any Disposable)?
  }

  private let downstream: AnyObserver<Element>
  private let state = LockedState(State())

  init(_ downstream: AnyObserver<Element>) {
    self.downstream = downstream
  }

  func on(_ event: Event<Element>) {
    let forward = state.withLock { state in
      guard !state.isStopped, !state.isDisposed else { return false }
      if event.isStopEvent { state.isStopped = true }
      return true
    }
    guard forward else { return }
    downstream.on(event)
    if event.isStopEvent { dispose() }
  }

  func setUpstream(_ upstream: any Disposable) {
    let disposeNow = state.withLock { state in
      if state.isDisposed { return true }
      state.upstream = upstream
      return false
    }
    if disposeNow { upstream.dispose() }
  }

  func dispose() {
    let upstream = state.withLock { state -> (any Disposable)? in
      guard !state.isDisposed else { return nil }
      state.isDisposed = true
      defer { state.upstream = nil }
      return state.upstream
    }
    upstream?.dispose()
  }
}
