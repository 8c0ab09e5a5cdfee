/// Forwards events from several producers to one observer one at a time, in
/// arrival order, without holding a lock while it runs (``SerialDrain``).
struct SerializedObserver<Element: Sendable>: ObserverType {
  private let drain: SerialDrain<Event<Element>>

  init(_ observer: AnyObserver<Element>) {
    drain = SerialDrain { observer.on($0) }
  }

  func on(_ event: Event<Element>) {
    drain.submit(event)
  }
}
