import Foundation
import Locking
import TPNSEmulator
import TPNSTestSupport
import Testing

/// Reconciliation as a property: whatever sequence of registers, adds, removes and
/// syncs runs, with processes at once, two servers, servers that forget and
/// faults, a final `tpns sync` at each server leaves each registry equal to
/// the store's desired state, and nothing pending.
///
/// `TPNS_PROPERTY_SEQUENCES` (default 200) sequences run, from a random seed;
/// a failure names its sequence's seed, and `TPNS_PROPERTY_SEED=<seed>` runs
/// that sequence again (alone, unless `TPNS_PROPERTY_SEQUENCES` says more);
/// `TPNS_PROPERTY_VERBOSE=1` prints every sequence's steps and results.
@Suite struct ReconcilePropertyTests {
  @Test(
    "random sequences with concurrency, server switches, restarts and faults end with every registry equal to the desired state",
    .timeLimit(.minutes(10)))
  func randomSequences() throws {
    let environment = ProcessInfo.processInfo.environment
    let replay = environment["TPNS_PROPERTY_SEED"].flatMap { UInt64($0) }
    let count =
      environment["TPNS_PROPERTY_SEQUENCES"].flatMap { Int($0) } ?? (replay == nil ? 200 : 1)
    let base = replay ?? UInt64.random(in: 0...UInt64.max)
    let servers = [try RunningEmulator(), try RunningEmulator()]
    let start = ContinuousClock.now
    var failures = 0
    var processes = 0
    // Repeated in the summary, which a CI log cut in the middle still shows.
    var failed: [String] = []
    for index in 0..<count {
      let seed = base &+ UInt64(index)
      for server in servers { try server.reset() }
      let sequence = try PropertySequence(seed: seed, servers: servers)
      do {
        try sequence.run()
      } catch let failure as PropertySequence.Failure {
        failures += 1
        failed.append("seed \(seed): \(failure.problem.prefix(500))")
        Issue.record(
          """
          sequence \(index) failed, seed \(seed) (replay: TPNS_PROPERTY_SEED=\(seed)): \
          \(failure.problem)
          \(sequence.log.joined(separator: "\n"))
          """)
      }
      processes += sequence.processes
      if environment["TPNS_PROPERTY_VERBOSE"] != nil {
        print(sequence.log.joined(separator: "\n"))
      }
      // A broken implementation fails most sequences: a few say enough.
      if failures >= 3 { break }
    }
    let elapsed = ContinuousClock.now - start
    print(
      "ReconcilePropertyTests: \(count) sequences from seed \(base), \(processes) tpns processes, "
        + "\(failures) failed, in \(elapsed)"
        + failed.map { "\n  failed: \($0)" }.joined())
  }
}

/// One random sequence of steps against two emulators, with a model of the
/// desired state it checks after every step.
final class PropertySequence {
  /// Why a sequence failed.
  struct Failure: Error {
    var problem: String
  }

  static let phones: [StoreFile.Registration] = [
    .init(token: String(repeating: "0f", count: 32)),
    .init(token: String(repeating: "a1", count: 32)),
    .init(token: "android-token-one", os: "android", udid: "phone-p"),
    .init(token: "android-token-two", os: "android", udid: "phone-p"),
    .init(token: "android-token-three", os: "android", udid: "phone-q"),
  ]
  /// Few, so that removes often find their UID and adds often find it there.
  static let uids = (0..<4).map { "PROPERTY" + String(repeating: "0", count: 11) + "\($0)" }

  /// The `tpns register` arguments of `phone`: `--os` always, since an
  /// option not given is the stored registration's.
  static func register(_ phone: StoreFile.Registration) -> [String] {
    phone.os == "ios"
      ? ["register", "--os", "ios", phone.token]
      : ["register", "--os", "android", "--udid", phone.udid, phone.token]
  }

  enum Command: Sendable, CustomStringConvertible {
    case register(StoreFile.Registration)
    case add([String])
    case remove(String)
    case sync

    var arguments: [String] {
      switch self {
      case .register(let phone): PropertySequence.register(phone)
      case .add(let uids): ["add"] + uids
      case .remove(let uid): ["remove", "--uid", uid]
      case .sync: ["sync"]
      }
    }

    var description: String { arguments.joined(separator: " ") }
  }

  enum Step: CustomStringConvertible {
    case run(Command, server: Int)
    case concurrently([(Command, server: Int)])
    case fault(server: Int, status: Int, count: Int)
    /// The server restarts with an empty registry.
    case restart(server: Int)
    /// The server is down while the command runs against it, then comes back empty.
    case outage(Command, server: Int)

    var description: String {
      switch self {
      case .run(let command, let server): "\(Self.name(server)): tpns \(command)"
      case .concurrently(let commands):
        "at once: "
          + commands.map { "\(Self.name($0.server)): tpns \($0.0)" }.joined(separator: " | ")
      case .fault(let server, let status, let count):
        "\(Self.name(server)): fault \(status) ×\(count)"
      case .restart(let server): "\(Self.name(server)): restart, registry forgotten"
      case .outage(let command, let server):
        "\(Self.name(server)): down, tpns \(command), back with the registry forgotten"
      }
    }

    static func name(_ server: Int) -> String { server == 0 ? "A" : "B" }
  }

  let seed: UInt64
  let servers: [RunningEmulator]
  let directory: TemporaryDirectory
  let store: String
  let steps: [Step]
  private(set) var log: [String] = []
  private(set) var processes = 0

  /// The desired UIDs as the commands run so far must have left them.
  private var desiredUIDs: Set<String> = []
  /// The desired registration as the store holds it.
  private var desired: StoreFile.Registration?
  /// Servers restarted since their last successful `sync`: their registry
  /// lags the store by design until then.
  private var forgetful: Set<Int> = []
  /// The commands of the step running, with their servers and exit statuses.
  private var stepResults: [(command: Command, server: Int, status: Int32)] = []

  init(seed: UInt64, servers: [RunningEmulator]) throws {
    self.seed = seed
    self.servers = servers
    directory = try TemporaryDirectory()
    store = directory.file("state.plist")
    var random = SplitMix64(seed: seed)
    steps = Self.steps(&random)
  }

  // MARK: Generation

  static func steps(_ random: inout SplitMix64) -> [Step] {
    var server = 0
    var steps: [Step] = [.run(.register(phones.randomElement(using: &random)!), server: 0)]
    let length = Int.random(in: 6...10, using: &random)
    while steps.count < length {
      if Int.random(in: 0..<4, using: &random) == 0 { server = 1 - server }
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<52:
        steps.append(.run(command(&random, from: uids), server: server))
      case 52..<67:
        var pool = uids.shuffled(using: &random)
        var commands: [(Command, server: Int)] = []
        for _ in 0..<Int.random(in: 2...3, using: &random) {
          // One UID each, none shared: commands at once on disjoint UIDs commute.
          let command = command(&random, from: Array(pool.prefix(1)))
          if case .add(let taken) = command { pool.removeAll { taken.contains($0) } }
          if case .remove(let taken) = command { pool.removeAll { $0 == taken } }
          commands.append((command, server: Int.random(in: 0...1, using: &random)))
        }
        steps.append(.concurrently(commands))
      case 67..<85:
        let rejected = Int.random(in: 0..<7, using: &random) == 0
        steps.append(
          .fault(
            server: server, status: rejected ? 400 : 503,
            count: rejected ? 1 : Int.random(in: 1...3, using: &random)))
      case 85..<92:
        steps.append(.restart(server: Int.random(in: 0...1, using: &random)))
      default:
        steps.append(.outage(command(&random, from: uids), server: server))
      }
    }
    return steps
  }

  /// A random command whose UIDs are from `pool`.
  static func command(_ random: inout SplitMix64, from pool: [String]) -> Command {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<25: .register(phones.randomElement(using: &random)!)
    case 25..<60:
      .add(Array(pool.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random))))
    case 60..<85: .remove(pool.randomElement(using: &random)!)
    default: .sync
    }
  }

  // MARK: Running

  func run() throws {
    log.append("seed \(seed), \(steps.count) steps")
    for step in steps {
      log.append(step.description)
      let before = try StoreFile(path: store)
      stepResults = []
      try perform(step)
      try checkStore(before: before)
      try checkReplicas()
    }
    try finish()
  }

  private func tpns(_ server: Int) -> TPNSProcess {
    TPNSProcess(store: store, server: servers[server].server)
  }

  private func perform(_ step: Step) throws {
    switch step {
    case .run(let command, let server):
      let result = try tpns(server).run(command.arguments)
      processes += 1
      try record(command, server: server, result, outage: false)
    case .concurrently(let commands):
      let runners = commands.map { tpns($0.server) }
      let arguments = commands.map(\.0.arguments)
      let results = LockedState<[Int: TPNSProcess.Result]>([:])
      DispatchQueue.concurrentPerform(iterations: commands.count) { index in
        let result = try? runners[index].run(arguments[index])
        results.withLock { $0[index] = result }
      }
      self.processes += commands.count
      for (index, command) in commands.enumerated() {
        guard let result = results.value[index] else {
          throw Failure(problem: "tpns \(command.0) did not run")
        }
        try record(command.0, server: command.server, result, outage: false)
      }
    case .fault(let server, let status, let count):
      try servers[server].armFault(status: status, count: count, retryAfter: 0)
    case .restart(let server):
      try servers[server].restartForgettingEverything()
      forgetful.insert(server)
    case .outage(let command, let server):
      servers[server].emulator.stop()
      // Refused connections are retried with backoff: --timeout bounds their cost.
      let result = try tpns(server).run(command.arguments + ["--timeout", "0.5"])
      processes += 1
      try servers[server].restartForgettingEverything()
      forgetful.insert(server)
      try record(command, server: server, result, outage: true)
    }
  }

  /// Logs a command's result, checks its exit status and moves the model.
  private func record(
    _ command: Command, server: Int, _ result: TPNSProcess.Result, outage: Bool
  ) throws {
    log.append("  tpns \(command) → \(result.status) \(result.stderr.prefix(300))")
    stepResults.append((command, server, result.status))
    var allowed: Set<Int32> = [0, 75, 76]
    if outage { allowed.insert(69) }
    if case .remove = command { allowed.insert(65) }
    guard allowed.contains(result.status) else {
      throw Failure(problem: "tpns \(command) exited \(result.status): \(result.stderr)")
    }
    switch command {
    case .add(let uids): desiredUIDs.formUnion(uids)
    case .remove(let uid): desiredUIDs.remove(uid)
    case .sync:
      if result.status == 0 { forgetful.remove(server) }
    case .register: break
    }
  }

  /// The store's desired state against the model: the UIDs exactly; the
  /// registration changed only by the step's registers (changed first, then
  /// sent: a register the server rejected, 76, may keep the previous one).
  /// Another command whose token the server rejected may fall back to the
  /// registration that server accepted, but only if no server acknowledged
  /// the desired one: a working registration is never rolled back.
  private func checkStore(before: StoreFile) throws {
    let file = try StoreFile(path: store)
    guard Set(file.uids) == desiredUIDs, file.uids.count == desiredUIDs.count else {
      throw Failure(
        problem: "the store holds UIDs \(file.uids), expected \(desiredUIDs.sorted())")
    }
    let working = before.servers.values.contains {
      $0.registration != nil && $0.registration == before.desired
    }
    var allowed = Set([desired].compactMap { $0 })
    var sure: StoreFile.Registration?
    for result in stepResults {
      if case .register(let phone) = result.command {
        allowed.insert(phone)
        if stepResults.count == 1, result.status != 76 { sure = phone }
      } else if result.status == 76, !working,
        let fallback = before.acknowledged(at: servers[result.server].server).registration
      {
        allowed.insert(fallback)
      }
    }
    if let sure, file.desired != sure {
      throw Failure(problem: "the store desires \(String(describing: file.desired)), not \(sure)")
    }
    guard let now = file.desired, allowed.contains(now) else {
      throw Failure(
        problem: "the store desires \(String(describing: file.desired)), "
          + "expected one of \(allowed)")
    }
    desired = now
  }

  /// Each server's registry against what the store says it acknowledged
  /// (but a server that forgot, until it is synced again).
  private func checkReplicas() throws {
    let file = try StoreFile(path: store)
    for (index, server) in servers.enumerated() where !forgetful.contains(index) {
      let mismatches = try server.replicaMismatches(of: file)
      guard mismatches.isEmpty else {
        throw Failure(
          problem: "server \(Step.name(index)) is not what the store says it acknowledged: "
            + mismatches.joined(separator: "; "))
      }
    }
  }

  /// A final sync at each server (faults disarmed), then each registry must
  /// be the desired state and nothing pending.
  private func finish() throws {
    log.append("final sync at A and B")
    for (index, server) in servers.enumerated() {
      try server.disarmFault()
      var result = try tpns(index).run(["sync"])
      processes += 1
      var attempts = 1
      while [69, 75].contains(result.status), attempts < 3 {
        result = try tpns(index).run(["sync"])
        processes += 1
        attempts += 1
      }
      log.append("  \(Step.name(index)): tpns sync → \(result.status) \(result.stderr.prefix(300))")
      guard result.status == 0 else {
        throw Failure(problem: "the final sync at \(Step.name(index)) exited \(result.status)")
      }
    }
    let file = try StoreFile(path: store)
    for (index, server) in servers.enumerated() {
      let name = Step.name(index)
      let mismatches = try server.desiredMismatches(of: file)
      guard mismatches.isEmpty else {
        throw Failure(
          problem: "after the final syncs, server \(name) is not the desired state: "
            + mismatches.joined(separator: "; "))
      }
      let replica = try server.replicaMismatches(of: file)
      guard replica.isEmpty else {
        throw Failure(
          problem: "after the final syncs, server \(name) is not what the store says it "
            + "acknowledged: " + replica.joined(separator: "; "))
      }
      let result = try tpns(index).run(["status", "--json"])
      processes += 1
      let status = StatusReport(jsonDocument(result))
      guard status.pending == false, status.registered == true else {
        throw Failure(problem: "after the final syncs, status at \(name): \(result.stdout)")
      }
    }
  }
}

/// A seeded random source (SplitMix64): the same seed, the same sequence.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
