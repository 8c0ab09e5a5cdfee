import Locking
import Synchronization

/// Fault injection: the next `count` `/tpns` requests are answered with `status`
/// (and `Retry-After` when set) instead of being run, to test clients' retries.
///
/// Thread-safe; arming again replaces the previous fault.
final class FaultInjector: @unchecked Sendable {
  // @unchecked: `fault` is only touched with `lock` held.

  /// An armed fault.
  struct Fault: Sendable, Equatable {
    var status: Int
    /// Requests still to fail.
    var remaining: Int
    /// Seconds for the `Retry-After` header.
    var retryAfter: Int?
  }

  private let lock = Lock()
  private var fault: Fault? {
    didSet { isArmed.store(fault != nil, ordering: .releasing) }
  }
  /// Whether `fault` is set, read without the lock: every `/tpns` request asks
  /// (``take()``), and while none is armed it costs one atomic load. A request racing
  /// an arming may run unfaulted.
  private let isArmed = Atomic<Bool>(false)

  /// The armed fault, if any.
  var current: Fault? { lock.withLock { fault } }

  /// Arms a fault (or disarms with a `remaining` of 0).
  func arm(_ newFault: Fault) {
    lock.withLock { fault = newFault.remaining > 0 ? newFault : nil }
  }

  /// Disarms the fault, if any.
  func disarm() {
    lock.withLock { fault = nil }
  }

  /// Consumes one failure; the fault to answer with, or nil to run the request.
  func take() -> Fault? {
    guard isArmed.load(ordering: .acquiring) else { return nil }
    return lock.withLock {
      guard var armed = fault else { return nil }
      armed.remaining -= 1
      fault = armed.remaining > 0 ? armed : nil
      return armed
    }
  }
}
