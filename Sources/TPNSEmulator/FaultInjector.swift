import Locking
import Synchronization

/// Chaos rules for `/tpns`: each request is matched against the armed rules in order,
/// and the first that takes it decides how it is answered: with a `status` (and
/// `Retry-After`), after a delay, or not at all (the connection dropped). A rule may
/// hold to one command, and hit only with a probability, drawn from its own seeded
/// generator, so the same seed gives the same hits for the same requests in any run.
///
///     faults.arm(FaultRule(status: 503, remaining: 2, command: "mapsync"))
///     faults.take(command: "mapsync")  // the rule: answer 503
///
/// Thread-safe.
final class FaultInjector: @unchecked Sendable {
  // @unchecked: `rules` and `nextID` are only touched with `lock` held.

  private let lock = Lock()
  private var rules: [FaultRule] = [] {
    didSet { isArmed.store(!rules.isEmpty, ordering: .releasing) }
  }
  private var nextID = 1
  /// Whether any rule is armed, read without the lock: every `/tpns` request asks
  /// (``take(command:)``), and while none is armed it costs one atomic load. A request
  /// racing an arming may run unfaulted.
  private let isArmed = Atomic<Bool>(false)

  /// The armed rules, in the order they are matched, with what each has left.
  var current: [FaultRule] { lock.withLock { rules } }

  /// Arms `rule` after the others, numbering it; returns it as armed.
  @discardableResult
  func arm(_ rule: FaultRule) -> FaultRule {
    lock.withLock {
      var armed = rule
      armed.id = nextID
      nextID += 1
      rules.append(armed)
      return armed
    }
  }

  func disarm() {
    lock.withLock { rules = [] }
  }

  /// The rule that takes a request of `command` (its `cmd`, nil when it has none),
  /// with one use counted; nil to run the request as usual. A rule used up is removed.
  func take(command: String?) -> FaultRule? {
    guard isArmed.load(ordering: .acquiring) else { return nil }
    return lock.withLock {
      for index in rules.indices {
        guard rules[index].takes(command: command) else { continue }
        rules[index].hits += 1
        if let remaining = rules[index].remaining { rules[index].remaining = remaining - 1 }
        let taken = rules[index]
        if taken.remaining == 0 { rules.remove(at: index) }
        return taken
      }
      return nil
    }
  }
}

/// One chaos rule: which `/tpns` requests it takes, and what it does to them.
struct FaultRule: Sendable, Equatable {
  /// Its number, given when armed (the request log names the rule that answered).
  var id = 0
  /// The status to answer with; nil to answer as usual (after `delay`), or to drop.
  var status: Int?
  /// Requests it still takes; nil for every one.
  var remaining: Int? = 1
  /// Only requests with this `cmd`, as sent; nil for any.
  var command: String?
  /// The chance it takes a request it matches (nil: always), drawn from a generator
  /// seeded with `seed`.
  var probability: Double?
  var seed: UInt64 = 0
  /// Held before the request is answered (or dropped).
  var delayMilliseconds = 0
  /// Whether the connection is closed without an answer.
  var drops = false
  /// Seconds for the `Retry-After` header (with `status`).
  var retryAfter: Int?
  var hits = 0
  /// The generator's state (SplitMix64), from `seed`; advanced once for each request it
  /// matches.
  var random: UInt64? = nil

  /// Whether it takes a request of `command`, drawing its chance when it has one.
  fileprivate mutating func takes(command: String?) -> Bool {
    if let wanted = self.command, wanted != command { return false }
    guard let probability else { return true }
    var mixed = (random ?? seed) &+ 0x9E37_79B9_7F4A_7C15
    random = mixed
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    mixed ^= mixed >> 31
    return Double(mixed >> 11) / Double(1 << 53) < probability
  }
}
