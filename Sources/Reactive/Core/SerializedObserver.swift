/// Forwards events from several producers (sources, timers, other threads)
/// to one observer one at a time, in arrival order, without holding a lock
/// while the observer runs. See ``SerialDrain``.
struct SerializedObserver<Element: Sendable>: ObserverType {
  private let drain: SerialDrain<Event<Element>>

  init(_ observer: AnyObserver<Element>) {
    drain = SerialDrain { observer.on($0) }
  }

  func on(_ event: Event<Element>) {
    drain.submit(event)
  }
}
