import Locking
import Reactive
import ReactiveTesting
import TPNSProtocol
import Testing

@testable import TPNSKit

/// The reconciliation of one server with the store, on the virtual clock:
/// each transition of the desired state, and what the server acknowledged.
@Suite struct ReconcileTests {
  static let t1 = try! PushToken(String(repeating: "1a", count: 32), os: .ios)
  static let t2 = try! PushToken(String(repeating: "2b", count: 32), os: .ios)
  static let android = try! PushToken("fcm-token:APA91b", os: .android)
  static let a = "AAAAAAAAAAAAAAAAAAAA"
  static let b = "BBBBBBBBBBBBBBBBBBBB"
  static let c = "CCCCCCCCCCCCCCCCCCCC"
  static func uids(_ texts: String...) -> [DeviceUID] { texts.map { try! DeviceUID($0) } }
  static let server = PipelineHarness.server
  static let busy = RequestFailure.status(503, body: "busy", retryAfter: nil)
  static let forgotten = RequestFailure.status(
    400, body: "error: udid '1a1a' is not registered for appid 'x' (send cmd=client first)",
    retryAfter: nil)

  /// Runs a pipeline with `input` made on the harness's scheduler; returns its outcomes.
  static func run(
    _ harness: PipelineHarness, server: String = PipelineHarness.server,
    registration: Registration = Registration(), disposed: TestTime = 10_000,
    _ input: (TestScheduler) -> SyncViewModel.Input
  ) -> [Recorded<Event<Outcome>>] {
    let viewModel = SyncViewModel(
      environment: harness.environment(server: server), registration: registration)
    let made = input(harness.scheduler)
    return harness.scheduler.start(disposed: disposed) { viewModel.transform(made).outcomes }.events
  }

  static func once<T: Sendable>(_ value: T, at time: TestTime = 210) -> (TestScheduler) ->
    Observable<T>
  {
    { $0.createHotObservable([.next(time, value), .completed(time + 1)]).asObservable() }
  }

  @Test("a new iOS token: the new phone is registered, the former one unmapped, the new one mapped")
  func tokenChange() {
    let harness = PipelineHarness(
      state: PipelineHarness.registered(token: Self.t1, uids: [Self.a, Self.b]))
    let events = Self.run(harness) { .init(token: Self.once(Self.t2.rawValue)($0)) }
    #expect(
      events == [
        .next(260, .registered(Self.t2, response: "ok")),
        .next(310, .unregistered(PipelineHarness.registration(Self.t1).phone, response: "ok")),
        .next(360, .synced(Self.uids(Self.a, Self.b), response: "ok")),
        .completed(360),
      ])
    #expect(
      harness.sends.map(\.value) == [
        "send client udid=2b2b token=2b2b", "send unreg_mapping udid=1a1a",
        "send mapsync udid=2b2b [\(Self.a),\(Self.b)]",
      ])
    #expect(
      harness.acknowledged
        == Acknowledgement(
          registration: PipelineHarness.registration(Self.t2), uids: [Self.a, Self.b]))
  }

  @Test(
    "a new phone identity (udid, appid, os) unmaps the former phone before mapping the new one",
    arguments: [
      (Registration(os: .android, udid: "phone-2"), "udid=phon token=fcm- os=android"),
      (
        Registration(os: .android, appID: "com.example.other", udid: "phone-1"),
        "udid=phon token=fcm- appid=com.example.other os=android"
      ),
    ])
  func identityChange(registration: Registration, client: String) {
    var state = StoreContents()
    let former = PhoneRegistration(token: Self.android, phone: Phone(os: .android, udid: "phone-1"))
    state.registration = former
    state.uids = [Self.a]
    state.servers[Self.server] = Acknowledgement(registration: former, uids: [Self.a])
    let harness = PipelineHarness(state: state)
    let events = Self.run(harness, registration: registration) {
      .init(token: Self.once(Self.android.rawValue)($0))
    }
    #expect(
      harness.sends.map(\.value) == [
        "send client \(client)", "send unreg_mapping udid=phon",
        "send mapsync udid=phon [\(Self.a)]",
      ])
    #expect(events[1] == .next(310, .unregistered(former.phone, response: "ok")))
    #expect(harness.acknowledged.formerPhones.isEmpty)
    #expect(harness.acknowledged.registration == harness.state.value.registration)
    #expect(harness.acknowledged.uids == [Self.a])
  }

  @Test(
    "a former phone registered again before it was unmapped: its list there is unknown until all of it is unmapped, even for an empty list"
  )
  func formerPhoneRegisteredAgain() {
    let phone1 = PhoneRegistration(token: Self.android, phone: Phone(os: .android, udid: "phone-1"))
    let phone2 = PhoneRegistration(token: Self.android, phone: Phone(os: .android, udid: "phone-2"))
    var state = StoreContents()
    state.registration = phone1
    // phone-1's mappings were still to be removed when phone-2 was registered.
    state.servers[Self.server] = Acknowledgement(
      registration: phone2, uids: [], formerPhones: [phone1.phone])
    var acknowledged = Acknowledgement(registration: phone2, uids: [], formerPhones: [phone1.phone])
    acknowledged.accept(phone1)
    #expect(acknowledged.listIsUnknown)
    #expect(acknowledged.formerPhones == [phone2.phone])
    let harness = PipelineHarness(state: state)
    _ = Self.run(harness, registration: Registration(os: .android, udid: "phone-1")) {
      .init(token: Self.once(Self.android.rawValue)($0))
    }
    // Unknown before it is registered again, too: status says so.
    #expect(state.difference(at: Self.server).listIsUnknown)
    #expect(
      harness.sends.map(\.value) == [
        "send client udid=phon token=fcm- os=android", "send unreg_mapping udid=phon",
        "send unreg_mapping udid=phon",
      ])
    #expect(harness.acknowledged == Acknowledgement(registration: phone1, uids: []))
  }

  @Test("ios to android: the Android phone is registered, the iOS one unmapped, the list mapped")
  func osChange() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    _ = Self.run(harness, registration: Registration(os: .android, udid: "phone-1")) {
      .init(token: Self.once(Self.android.rawValue)($0))
    }
    #expect(
      harness.sends.map(\.value) == [
        "send client udid=phon token=fcm- os=android", "send unreg_mapping udid=1a1a",
        "send mapsync udid=phon [\(Self.a)]",
      ])
  }

  @Test(
    "only the os changes (android to huawei, same appid and udid): the same phone, registered again; nothing to unmap; the list sent again"
  )
  func osOnlyChange() throws {
    var state = StoreContents()
    let former = PhoneRegistration(token: Self.android, phone: Phone(os: .android, udid: "phone-1"))
    state.registration = former
    state.uids = [Self.a]
    state.servers[Self.server] = Acknowledgement(registration: former, uids: [Self.a])
    // While the change is desired but not yet sent, nothing is to unmap either.
    var desired = state
    desired.registration?.phone.os = .huawei
    #expect(desired.difference(at: Self.server).formerPhones == [])
    let harness = PipelineHarness(state: state)
    let events = Self.run(harness, registration: Registration(os: .huawei, udid: "phone-1")) {
      .init(token: Self.once(Self.android.rawValue)($0))
    }
    #expect(
      harness.sends.map(\.value) == [
        "send client udid=phon token=fcm- os=huawei", "send mapsync udid=phon [\(Self.a)]",
      ])
    #expect(!events.contains { if case .failed? = $0.value.element { true } else { false } })
    #expect(harness.acknowledged.formerPhones.isEmpty)
    #expect(harness.acknowledged.registration?.phone.os == .huawei)
    #expect(!harness.state.value.difference(at: Self.server).isPending)
  }

  @Test("the same Android phone with a new token, lang or dev: registered again, the list kept")
  func sameIdentityNewRegistration() {
    var state = StoreContents()
    let former = PhoneRegistration(token: Self.android, phone: Phone(os: .android, udid: "phone-1"))
    state.registration = former
    state.uids = [Self.a]
    state.servers[Self.server] = Acknowledgement(registration: former, uids: [Self.a])
    let harness = PipelineHarness(state: state)
    let events = Self.run(
      harness,
      registration: Registration(os: .android, udid: "phone-1", language: "de", sandbox: true)
    ) { .init(token: Self.once(Self.android.rawValue)($0)) }
    #expect(events == [.next(260, .registered(Self.android, response: "ok")), .completed(260)])
    #expect(
      harness.sends.map(\.value) == ["send client udid=phon token=fcm- os=android lang=de dev=1"])
    #expect(harness.acknowledged.uids == [Self.a])
    #expect(harness.acknowledged.registration?.language == "de")
  }

  @Test(
    "another server: a change registers there first, then maps; the first server's record stays")
  func serverSwitch() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    let events = Self.run(harness, server: PipelineHarness.otherServer) {
      .init(addBatches: Self.once([Self.b])($0))
    }
    #expect(
      events == [
        .next(210, .added(Self.uids(Self.b)[0])),
        .next(260, .registered(Self.t1, response: "ok")),
        .next(310, .synced(Self.uids(Self.a, Self.b), response: "ok")),
        .completed(310),
      ])
    #expect(harness.sends.allSatisfy { $0.value.hasSuffix(" to other") })
    let state = harness.state.value
    #expect(state.acknowledged(at: PipelineHarness.otherServer).uids == [Self.a, Self.b])
    #expect(state.acknowledged(at: Self.server).uids == [Self.a])
    #expect(state.difference(at: Self.server).toAdd == [Self.b])
  }

  @Test("a server that forgot the phone: registered again and mapped in the same run")
  func forgottenRegistration() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    harness.script(.mapsync, [harness.failure(Self.forgotten, after: 10)])
    let events = Self.run(harness) { .init(syncRequests: Self.once(())($0)) }
    #expect(
      events == [
        .next(220, .registrationLost(server: Self.server)),
        .next(270, .registered(Self.t1, response: "ok")),
        .next(320, .synced(Self.uids(Self.a), response: "ok")),
        .completed(320),
      ])
    #expect(!harness.state.value.difference(at: Self.server).isPending)
  }

  @Test("a server that forgets the phone again at once is a failure, not a loop")
  func forgottenTwice() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    harness.script(
      .mapsync,
      [harness.failure(Self.forgotten, after: 10), harness.failure(Self.forgotten, after: 10)])
    let events = Self.run(harness) { .init(syncRequests: Self.once(())($0)) }
    #expect(events.count == 4)
    #expect(events[2] == .next(280, .failed(.request(.mapsync, Self.forgotten))))
    #expect(harness.sends.count == 3)
  }

  @Test("a rejected register keeps the previous working registration; nothing else is sent")
  func rejectedRegister() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    let before = harness.state.value
    let rejected = RequestFailure.status(400, body: "error: bad token", retryAfter: nil)
    harness.script(.client, [harness.failure(rejected, after: 10)])
    let events = Self.run(harness) { .init(token: Self.once(Self.t2.rawValue)($0)) }
    #expect(
      events == [
        .next(220, .failed(.registrationRejected(Self.t2, kept: Self.t1, rejected))),
        .completed(220),
      ])
    // The working phone keeps its registration and mappings: nothing else was sent.
    #expect(harness.sends.map(\.value) == ["send client udid=2b2b token=2b2b"])
    #expect(harness.state.value == before)
    #expect(!harness.state.value.difference(at: Self.server).isPending)
  }

  @Test("a former phone the server could not unmap (down) stays to unmap; the next run does it")
  func unmapFailure() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    harness.failEveryAttempt(of: .unregMapping, with: Self.busy)
    _ = Self.run(harness) { .init(token: Self.once(Self.t2.rawValue)($0)) }
    let t1Phone = PipelineHarness.registration(Self.t1).phone
    #expect(harness.acknowledged.formerPhones == [t1Phone])
    #expect(harness.state.value.difference(at: Self.server).nextCommand == "tpns sync")
    let rerun = PipelineHarness(state: harness.state.value)
    _ = Self.run(rerun) { .init(syncRequests: Self.once(())($0)) }
    #expect(
      rerun.sends.map(\.value) == [
        "send unreg_mapping udid=1a1a", "send mapsync udid=2b2b [\(Self.a)]",
      ])
    #expect(!rerun.state.value.difference(at: Self.server).isPending)
  }

  @Test(
    "a former phone the server refuses to unmap (4xx) is reported and stays pending; the new one is mapped; the next sync asks again"
  )
  func unmapRefused() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    let refused = RequestFailure.status(400, body: "error: no", retryAfter: nil)
    harness.script(.unregMapping, [harness.failure(refused, after: 10)])
    let events = Self.run(harness) { .init(token: Self.once(Self.t2.rawValue)($0)) }
    let former = PipelineHarness.registration(Self.t1).phone
    #expect(
      events == [
        .next(260, .registered(Self.t2, response: "ok")),
        .next(270, .failed(.formerPhoneNotUnmapped(former, refused))),
        .next(320, .synced(Self.uids(Self.a), response: "ok")),
        .completed(320),
      ])
    #expect(harness.acknowledged.formerPhones == [former])
    let difference = harness.state.value.difference(at: Self.server)
    #expect(difference.formerPhones == [former])
    #expect(difference.isPending)
    #expect(difference.nextCommand == "tpns sync")

    // Refused again: reported again, and still pending.
    let refusedAgain = PipelineHarness(state: harness.state.value)
    refusedAgain.script(.unregMapping, [refusedAgain.failure(refused, after: 10)])
    let again = Self.run(refusedAgain) { .init(syncRequests: Self.once(())($0)) }
    #expect(again.contains(.next(220, .failed(.formerPhoneNotUnmapped(former, refused)))))
    #expect(refusedAgain.sends.map(\.value).first == "send unreg_mapping udid=1a1a")
    #expect(refusedAgain.acknowledged.formerPhones == [former])

    // Accepted: no longer pending.
    let accepted = PipelineHarness(state: harness.state.value)
    _ = Self.run(accepted) { .init(syncRequests: Self.once(())($0)) }
    #expect(accepted.sends.map(\.value).first == "send unreg_mapping udid=1a1a")
    #expect(accepted.acknowledged.formerPhones.isEmpty)
    #expect(!accepted.state.value.difference(at: Self.server).isPending)
  }

  @Test(
    "a new token adopted after a 5xx, then rejected by a later sync, falls back to the accepted one"
  )
  func rejectedOnLaterSync() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    harness.failEveryAttempt(of: .client, with: Self.busy)
    _ = Self.run(harness) { .init(token: Self.once(Self.t2.rawValue)($0)) }
    #expect(harness.state.value.registration?.token == Self.t2)
    let later = PipelineHarness(state: harness.state.value)
    let rejected = RequestFailure.status(400, body: "error: bad token", retryAfter: nil)
    later.script(.client, [later.failure(rejected, after: 10)])
    let events = Self.run(later) { .init(syncRequests: Self.once(())($0)) }
    #expect(
      events.first == .next(220, .failed(.registrationRejected(Self.t2, kept: Self.t1, rejected))))
    #expect(later.state.value.registration == PipelineHarness.registration(Self.t1))
    // T1's phone was never unmapped (T2 was not accepted): nothing else to send.
    #expect(later.sends.map(\.value) == ["send client udid=2b2b token=2b2b"])
    #expect(!later.state.value.difference(at: Self.server).isPending)
  }

  @Test("a 404 to a register is a wrong server, not a rejected token: the token stays desired")
  func wrongServerIsNotRejection() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1))
    let notFound = RequestFailure.status(404, body: "error: no such path", retryAfter: nil)
    harness.script(.client, [harness.failure(notFound, after: 10)])
    let events = Self.run(harness) { .init(token: Self.once(Self.t2.rawValue)($0)) }
    #expect(events == [.next(220, .failed(.request(.client, notFound))), .completed(220)])
    #expect(harness.state.value.registration?.token == Self.t2)
  }

  @Test(
    "switching back to a former phone not yet unmapped: what it holds there is unknown, settings included, so every mapping goes and the list is sent again"
  )
  func switchBack() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    harness.failEveryAttempt(of: .unregMapping, with: Self.busy)
    _ = Self.run(harness) { .init(token: Self.once(Self.t2.rawValue)($0)) }
    let rerun = PipelineHarness(state: harness.state.value)
    _ = Self.run(rerun) { .init(token: Self.once(Self.t1.rawValue)($0)) }
    #expect(
      rerun.sends.map(\.value) == [
        "send client udid=1a1a token=1a1a", "send unreg_mapping udid=2b2b",
        "send unreg_mapping udid=1a1a", "send mapsync udid=1a1a [\(Self.a)]",
      ])
    #expect(rerun.acknowledged.formerPhones.isEmpty)
    #expect(!rerun.state.value.difference(at: Self.server).isPending)
  }

  @Test("a failed register is stored with its lang and dev, and a later sync registers them")
  func failedRegisterKeepsSettings() {
    let harness = PipelineHarness()
    harness.failEveryAttempt(of: .client, with: Self.busy)
    let registration = Registration(language: "de", sandbox: true)
    let first = Self.run(harness, registration: registration) {
      .init(token: Self.once(Self.t1.rawValue)($0))
    }
    #expect(
      first.last(where: { if case .next(.failed) = $0.value { true } else { false } })
        == .next(1710, .failed(.request(.client, .exhausted(attempts: 3, last: Self.busy)))))
    #expect(harness.state.value.registration?.language == "de")
    #expect(harness.acknowledged.registration == nil)
    let later = PipelineHarness(state: harness.state.value)
    _ = Self.run(later) { .init(syncRequests: Self.once(())($0)) }
    #expect(
      later.sends.map(\.value) == [
        "send client udid=1a1a token=1a1a lang=de dev=1", "send mapsync udid=1a1a []",
      ])
  }

  @Test("a failed sync, then the same command again: the pending list is sent")
  func failureThenRerun() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1))
    harness.failEveryAttempt(of: .mapsync, with: Self.busy)
    _ = Self.run(harness) { .init(addBatches: Self.once([Self.a])($0)) }
    #expect(harness.acknowledged.uids == [])
    let rerun = PipelineHarness(state: harness.state.value)
    let events = Self.run(rerun) { .init(addBatches: Self.once([Self.a])($0)) }
    #expect(
      events == [
        .next(210, .alreadyPresent(Self.uids(Self.a)[0])),
        .next(260, .synced(Self.uids(Self.a), response: "ok")), .completed(260),
      ])
  }

  @Test("removing a UID already removed but still on the server sends its removal")
  func removalRerun() {
    var state = PipelineHarness.registered(token: Self.t1, uids: [Self.a, Self.b])
    state.uids = [Self.a]
    let harness = PipelineHarness(state: state)
    let events = Self.run(harness) { .init(removals: Self.once([.uid(Self.b)])($0)) }
    #expect(
      events == [
        .next(210, .alreadyRemoved(Self.uids(Self.b)[0])),
        .next(260, .synced(Self.uids(Self.a), response: "ok")), .completed(260),
      ])
    let nowhere = Self.run(PipelineHarness(state: harness.state.value)) {
      .init(removals: Self.once([.uid(Self.c)])($0))
    }
    #expect(nowhere == [.next(210, .failed(.notInList(Self.uids(Self.c)[0]))), .completed(211)])
  }

  @Test("overlapping registrations of one phone: the newest ends the first's retries, and wins")
  func overlappingRegistrations() {
    let harness = PipelineHarness()
    harness.script(.client, [harness.failure(Self.busy), harness.ok()])
    let registration = Registration(os: .android, udid: "phone-1")
    let tokenA = try! PushToken("token-A", os: .android)
    let tokenB = try! PushToken("token-B", os: .android)
    let events = Self.run(harness, registration: registration) {
      .init(
        token: $0.createHotObservable([
          .next(210, tokenA.rawValue), .next(230, tokenB.rawValue), .completed(240),
        ]).asObservable())
    }
    // A fails at 210 and waits 0.5 s to be retried; B, stored at 230, ends
    // that wait (A is not sent again), and is registered in the same run; the
    // run B asked for has nothing left.
    #expect(
      harness.sends.map(\.value) == [
        "send client udid=phon token=toke os=android",
        "send client udid=phon token=toke os=android",
      ])
    #expect(events.last == .completed(280))
    #expect(harness.acknowledged.registration?.token == tokenB)
    #expect(harness.state.value.registration?.token == tokenB)
  }

  @Test("the command's deadline bounds the whole reconciliation, not each request")
  func deadline() {
    let harness = PipelineHarness(
      state: PipelineHarness.registered(token: Self.t1, acknowledged: false), responseDelay: 600,
      deadline: .seconds(1))
    _ = Self.run(harness) { .init(addBatches: Self.once([Self.a])($0)) }
    // The client took 0.6 s of the second left after 0.21 s: the mapsync gets the rest.
    #expect(harness.attemptTimeouts.value == [.milliseconds(790), .milliseconds(190)])
  }

  @Test("UIDs with no token wait for one; nothing is sent")
  func waitsForToken() {
    let harness = PipelineHarness()
    let events = Self.run(harness) { .init(addBatches: Self.once([Self.a])($0)) }
    #expect(
      events == [
        .next(210, .added(Self.uids(Self.a)[0])),
        .next(210, .waitingForRegistration(Self.uids(Self.a))), .completed(211),
      ])
    #expect(
      harness.state.value.difference(at: Self.server).nextCommand
        == "tpns register --token-file FILE")
  }
}
