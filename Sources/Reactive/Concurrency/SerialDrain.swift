/// Serialises work submitted from any thread without holding a lock while
/// the work runs.
///
/// The first caller to find the drain idle becomes the drainer and handles
/// items, its own and any that other threads (or the handler itself,
/// re-entrantly) submit meanwhile, one at a time in submission order. Other
/// callers only enqueue and return. This is how subjects and the operators
/// that merge several sources keep the observer contract (one event at a
/// time) with no deadlock when an observer feeds an event back upstream.
final class SerialDrain<Item>: @unchecked Sendable {
  // @unchecked: `pending`, `head` and `isDraining` are guarded by `lock`;
  // `handle` runs on one thread at a time, which is the point of the type.
  private let lock = Lock()
  private var pending: [Item] = []
  private var head = 0
  private var isDraining = false
  private let handle: (Item) -> Void

  init(_ handle: @escaping (Item) -> Void) {
    self.handle = handle
  }

  /// Handles `item` now if the drain is idle, else after the items before it.
  func submit(_ item: Item) {
    let becameDrainer = lock.withLock {
      pending.append(item)
      if isDraining { return false }
      isDraining = true
      return true
    }
    guard becameDrainer else { return }
    while let next = takeNext() {
      handle(next)
    }
  }

  private func takeNext() -> Item? {
    lock.withLock {
      guard head < pending.count else {
        pending.removeAll(keepingCapacity: pending.count <= 64)
        head = 0
        isDraining = false
        return nil
      }
      let item = pending[head]
      head += 1
      return item
    }
  }
}
