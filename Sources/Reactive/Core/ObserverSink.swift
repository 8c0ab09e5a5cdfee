import Locking

/// Stands between a producer and its observer for one subscription: drops
/// events after the end or disposal, and disposes the producer once it has
/// ended, even when its disposable arrives after the end (a producer that
/// completes while being subscribed).
final class ObserverSink<Element: Sendable>: ObserverType, Disposable {
  private let downstream: AnyObserver<Element>
  private let isStopped = LockedState(false)
  private let upstream = SingleAssignmentDisposable()

  init(_ downstream: AnyObserver<Element>) {
    self.downstream = downstream
  }

  func on(_ event: Event<Element>) {
    guard !upstream.isDisposed else { return }
    let forward = isStopped.withLock { isStopped in
      guard !isStopped else { return false }
      isStopped = event.isStopEvent
      return true
    }
    guard forward else { return }
    downstream.on(event)
    if event.isStopEvent { dispose() }
  }

  func setUpstream(_ disposable: any Disposable) {
    upstream.setDisposable(disposable)
  }

  func dispose() {
    upstream.dispose()
  }
}
