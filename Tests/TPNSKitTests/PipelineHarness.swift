import Locking
import Reactive
import ReactiveTesting
import TPNSProtocol

@testable import TPNSKit

/// A pipeline on a virtual clock, with an in-memory store and a scripted
/// server that records, with times, every store write and every request.
final class PipelineHarness: Sendable {
  static let server = "http://tpns.test/tpns"
  static let okResponse = HTTPResponse(status: 200, body: "ok")

  let scheduler = TestScheduler()
  let state: LockedState<StoreContents>
  /// "store …" and "send …" lines with their virtual times, in order.
  let log = LockedState<[Recorded<String>]>([])
  /// What each attempt of a command gets, in order; when empty, `defaultResponse`.
  let scripted = LockedState<[CommandName: [Observable<HTTPResponse>]]>([:])
  let defaultDelay: TestTime
  /// The retry policy's time limit for one request.
  let timeLimit: Duration?
  /// The time each attempt was given, in order.
  let attemptTimeouts = LockedState<[Duration?]>([])

  /// The whole command's time, from when the environment is made.
  let deadline: Duration?

  init(
    state: StoreContents = StoreContents(), responseDelay: TestTime = 50,
    timeLimit: Duration? = nil,
    deadline: Duration? = nil
  ) {
    self.state = LockedState(state)
    defaultDelay = responseDelay
    self.timeLimit = timeLimit
    self.deadline = deadline
  }

  /// A second server, for switches.
  static let otherServer = "http://other.test/tpns"

  /// The registration of an iOS `token` (its udid is the token).
  static func registration(_ token: PushToken) -> PhoneRegistration {
    PhoneRegistration(token: token, phone: Phone(os: token.os, udid: token.rawValue))
  }

  /// A store that desires `token` and `uids`, both acknowledged by the test
  /// server (with `acknowledged` false: by no server).
  static func registered(
    token: PushToken, uids: [String] = [], acknowledged: Bool = true
  ) -> StoreContents {
    var state = StoreContents()
    state.registration = registration(token)
    state.uids = uids
    if acknowledged {
      state.servers[server] = Acknowledgement(
        registration: registration(token), uids: uids)
    }
    return state
  }

  /// What the test server acknowledged.
  var acknowledged: Acknowledgement {
    state.value.acknowledged(at: Self.server)
  }

  /// Queues the responses to the next attempts of `command`.
  func script(_ command: CommandName, _ responses: [Observable<HTTPResponse>]) {
    scripted.withLock { $0[command, default: []] += responses }
  }

  /// A response after `delay` ticks.
  func ok(after delay: TestTime? = nil) -> Observable<HTTPResponse> {
    scheduler.createColdObservable([
      .next(delay ?? defaultDelay, Self.okResponse), .completed(delay ?? defaultDelay),
    ]).asObservable()
  }

  /// Every attempt of `command` fails with `failure` until the retries give up.
  func failEveryAttempt(of command: CommandName, with failure: RequestFailure) {
    script(command, (0..<3).map { _ in self.failure(failure) })
  }

  /// A failure after `delay` ticks.
  func failure(_ failure: RequestFailure, after delay: TestTime = 0) -> Observable<HTTPResponse> {
    scheduler.createColdObservable([.error(delay, failure, HTTPResponse.self)]).asObservable()
  }

  func record(_ line: String) {
    let time = scheduler.clock
    log.withLock { $0.append(Recorded(time: time, value: line)) }
  }

  var environment: PipelineEnvironment { environment(server: Self.server) }

  /// The environment of a pipeline that uses `server`.
  func environment(server url: String) -> PipelineEnvironment {
    let store = StoreClient.inMemory(state)
    let loggingStore = StoreClient(
      load: store.load,
      update: { [self] change in
        let before = state.value
        let after = try store.update(change)
        if after.uids != before.uids { record("store \(after.uids.joined(separator: ","))") }
        return after
      })
    let server = ServerClient(url: url) { [self] command, timeout in
      attemptTimeouts.withLock { $0.append(timeout) }
      return Observable.deferred { [self] in
        record(
          "send \(command.name.rawValue) \(summary(command))"
            + (url == Self.server ? "" : " to other"))
        let next = scripted.withLock { scripted -> Observable<HTTPResponse>? in
          guard var queue = scripted[command.name], !queue.isEmpty else { return nil }
          let first = queue.removeFirst()
          scripted[command.name] = queue
          return first
        }
        return next ?? ok()
      }
    }
    return PipelineEnvironment(
      store: loggingStore, server: server, scheduler: scheduler,
      retryPolicy: RetryPolicy(random: { 1 }, timeLimit: timeLimit),
      deadline: deadline.map { scheduler.now + $0 })
  }

  /// The part of a command the tests look at: the mapsync list (a UID's
  /// settings after it, `A{30,fmt}`), the client's udid and the values that
  /// are not the defaults (`lang=enUS` and `dev=0` are sent every time), the
  /// UID of a single-UID request.
  private func summary(_ command: TPNSRequest) -> String {
    switch command {
    case .mapsync(let phone, let uids, let settings):
      "udid=\(phone.udid.prefix(4)) ["
        + uids.map { uid in
          uid.rawValue
            + (settings[uid].map { "{\($0.interval.map(String.init) ?? ""),\($0.format ?? "")}" }
              ?? "")
        }.joined(separator: ",") + "]"
    case .client(let phone, let token, let language, let sandbox, _):
      "udid=\(phone.udid.prefix(4)) token=\(token.rawValue.prefix(4))"
        + (phone.appID == Phone.defaultAppID ? "" : " appid=\(phone.appID)")
        + (phone.os == .ios ? "" : " os=\(phone.os.rawValue)")
        + (language.flatMap { $0 == PhoneRegistration.defaultLanguage ? nil : " lang=\($0)" }
          ?? "")
        + (sandbox == true ? " dev=1" : "")
    case .unregisterMapping(let phone, let uid):
      "udid=\(phone.udid.prefix(4))" + (uid.map { " uid=\($0.rawValue)" } ?? "")
    case .removeMapping(let phone, let uid):
      "udid=\(phone.udid.prefix(4)) uid=\(uid.rawValue)"
    case .mapping(let phone, let uid, let interval, let format):
      "udid=\(phone.udid.prefix(4)) uid=\(uid.rawValue)"
        + (interval.map { " interval=\($0)" } ?? "") + (format.map { " format=\($0)" } ?? "")
    default: ""
    }
  }

  var sends: [Recorded<String>] {
    log.value.filter { $0.value.hasPrefix("send") }
  }
}
