import Locking

/// Serialises work submitted from any thread without holding a lock while it
/// runs: the first caller to find the drain idle handles items, its own and
/// those submitted meanwhile (even re-entrantly), one at a time in order; so
/// an observer may feed an event back upstream without deadlock.
final class SerialDrain<Item: Sendable>: @unchecked Sendable {
  // @unchecked: `pending` and `isDraining` are guarded by `lock`;
  // `handle` runs on one thread at a time, which is the point of the type.
  private let lock = Lock()
  private var pending: [Item] = []
  private var isDraining = false
  private let handle: @Sendable (Item) -> Void

  init(_ handle: @escaping @Sendable (Item) -> Void) {
    self.handle = handle
  }

  /// Handles `item` now if the drain is idle, else after the items before it.
  func submit(_ item: Item) {
    if enqueue(item) { drain() }
  }

  /// Queues `item`; returns whether the caller became the drainer and must
  /// call ``drain()`` (after releasing a lock of its own it may hold).
  func enqueue(_ item: Item) -> Bool {
    lock.withLock {
      pending.append(item)
      if isDraining { return false }
      isDraining = true
      return true
    }
  }

  /// Handles queued items until none is left; only for the drainer. Items
  /// submitted while a batch is handled form the next one.
  func drain() {
    while true {
      let batch = lock.withLock {
        defer { pending = [] }
        if pending.isEmpty { isDraining = false }
        return pending
      }
      if batch.isEmpty { return }
      for item in batch { handle(item) }
    }
  }
}
