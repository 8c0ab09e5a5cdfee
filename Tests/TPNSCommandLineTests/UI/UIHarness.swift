import Locking
import Reactive
import ReactiveTesting
import TPNSKit
import TPNSProtocol
import Terminal

@testable import TPNSCommandLine

/// The screen's logic and the real pipeline on the `TestScheduler`: an
/// in-memory store, a server whose every answer comes after `delay` ticks
/// (1 tick = 1 ms) unless scripted, and a record of what was sent when.
final class UIHarness: Sendable {
  static let server = "http://tpns.test/tpns"
  static let ok = HTTPResponse(status: 200, body: "ok")
  static let busy = RequestFailure.status(503, body: "busy", retryAfter: nil)
  static let tokenA = String(repeating: "a1", count: 32)
  static let tokenB = String(repeating: "b2", count: 32)
  static let uid1 = "ABCDEFGHJKLMNPRSTUVW"
  static let uid2 = "BBCDEFGHJKLMNPRSTUV2"

  let scheduler = TestScheduler()
  let state: LockedState<StoreContents>
  let delay: TestTime
  /// "client …a1a1a1", "mapsync A,B" with the time each was sent.
  let sends = LockedState<[Recorded<String>]>([])
  /// Answers to the next requests, in order; then `ok` after `delay`.
  let scripted = LockedState<[Observable<HTTPResponse>]>([])

  init(state: StoreContents = StoreContents(), delay: TestTime = 50) {
    self.state = LockedState(state)
    self.delay = delay
  }

  /// A store whose token (iOS, `token`) and `uids` this server acknowledged.
  static func registered(_ token: String = tokenA, uids: [String] = []) -> StoreContents {
    let pushToken = try! PushToken(token, os: .ios)
    let registration = PhoneRegistration(
      token: pushToken, phone: Phone(os: .ios, udid: pushToken.rawValue))
    var state = StoreContents()
    state.registration = registration
    state.uids = uids
    state.servers[server] = Acknowledgement(registration: registration, uids: uids)
    return state
  }

  /// A failure of the next request after `after` ticks.
  func fail(after: TestTime = 0) {
    let failure = scheduler.createColdObservable([.error(after, Self.busy, HTTPResponse.self)])
    scripted.withLock { $0.append(failure.asObservable()) }
  }

  var environment: PipelineEnvironment {
    let server = ServerClient(url: Self.server) { [self] request, _ in
      Observable.deferred { [self] in
        let time = scheduler.clock
        sends.withLock { $0.append(Recorded(time: time, value: Self.summary(request))) }
        let next = scripted.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        return next
          ?? scheduler.createColdObservable([.next(delay, Self.ok), .completed(delay)])
          .asObservable()
      }
    }
    return PipelineEnvironment(
      store: .inMemory(state), server: server, scheduler: scheduler,
      retryPolicy: RetryPolicy(random: { 1 }))
  }

  static func summary(_ request: TPNSRequest) -> String {
    switch request {
    case .client(_, let token, _, _, _): "client \(MaskedSecret(token.rawValue))"
    case .mapsync(_, let uids, _): "mapsync \(uids.map(\.rawValue).joined(separator: ","))"
    default: request.name.rawValue
    }
  }

  static let options = GlobalOptions(server: server, storePath: "/tmp/state.plist")

  static let context: UIContext = {
    let mask = TokenMask(showsTokens: false)
    let formatting = OutcomeFormatting(options: options, mask: mask, namesServer: false)
    return UIContext(
      server: server, showToken: { options.show($0) },
      describe: { UserInterface.status(of: $0, formatting: formatting) })
  }()

  /// The screen's states while `keys` are pressed (and the store changes
  /// with `storeChanges`), from 200 to `disposed`.
  func run(
    keys: [Recorded<Event<Key>>], storeChanges: Observable<StoreEvent> = .empty(),
    disposed: TestTime = 3000
  ) -> [Recorded<Event<UIState>>] {
    let initial = UIState.initial(state.value, context: Self.context)
    let session = UISession(
      viewModel: SyncViewModel(environment: environment), context: Self.context,
      initial: initial)
    let keyEvents = scheduler.createHotObservable(keys)
    let res = scheduler.start(disposed: disposed) {
      session.states(keys: keyEvents.asObservable(), storeChanges: storeChanges)
    }
    return res.events
  }

  /// Each key of `text` as a character, all at `time`.
  static func typing(_ text: String, at time: TestTime) -> [Recorded<Event<Key>>] {
    text.map { .next(time, Key.character($0)) }
  }
}

/// What `part` of the state was at each change of it: a marble of one aspect.
func changes<Value: Equatable>(
  _ events: [Recorded<Event<UIState>>], _ part: (UIState) -> Value
) -> [Recorded<Value>] {
  var result: [Recorded<Value>] = []
  for event in events {
    guard case .next(let state) = event.value else { continue }
    let value = part(state)
    if result.last?.value != value { result.append(Recorded(time: event.time, value: value)) }
  }
  return result
}

/// The state at `time` (the last one at or before it).
func state(at time: TestTime, _ events: [Recorded<Event<UIState>>]) -> UIState? {
  events.last { event in
    guard event.time <= time, case .next = event.value else { return false }
    return true
  }
  .flatMap { if case .next(let state) = $0.value { state } else { nil } }
}
