import Reactive
import ReactiveTesting
import TPNSProtocol
import Testing

@testable import TPNSKit

@Suite struct SyncViewModelTests {
  static let t1 = try! PushToken(String(repeating: "1a", count: 32), os: .ios)
  static let t2 = try! PushToken(String(repeating: "2b", count: 32), os: .ios)
  static let a = "AAAAAAAAAAAAAAAAAAAA"
  static let b = "BBBBBBBBBBBBBBBBBBBB"
  static let c = "CCCCCCCCCCCCCCCCCCCC"
  static let d = "DDDDDDDDDDDDDDDDDDDD"
  static func uid(_ text: String) -> DeviceUID { try! DeviceUID(text) }

  @Test("canAdd is true only while both the UID text and the token are valid")
  func canAdd() {
    let harness = PipelineHarness()
    let uidText = harness.scheduler.createHotObservable([
      .next(210, "abc"), .next(220, Self.a.lowercased()), .next(260, "A&"),
    ])
    let token = harness.scheduler.createHotObservable([
      .next(230, Self.t1.rawValue), .next(240, "short"), .next(250, Self.t1.rawValue),
    ])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(token: token.asObservable(), uidText: uidText.asObservable()))
        .canAdd
    }
    #expect(
      res.events == [
        .next(200, false), .next(230, true), .next(240, false), .next(250, true), .next(260, false),
      ])
  }

  @Test(
    "a token change mid-registration: the newest token ends registered, the former phone unmapped")
  func tokenChangeCancels() {
    let harness = PipelineHarness()
    let token = harness.scheduler.createHotObservable([
      .next(210, Self.t1.rawValue), .next(230, Self.t2.rawValue), .completed(400),
    ])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(token: token.asObservable())).outcomes
    }
    // The first registration is not cancelled mid-flight (the server may have
    // acted on it): once it is acknowledged, the former phone is unmapped and
    // the newest token registered, once.
    let t1 = PipelineHarness.registration(Self.t1)
    #expect(
      res.events == [
        .next(260, .registered(Self.t1, response: "ok")),
        .next(310, .registered(Self.t2, response: "ok")),
        .next(360, .unregistered(t1.phone, response: "ok")),
        .completed(400),
      ])
    #expect(
      harness.sends.map(\.value) == [
        "send client udid=1a1a token=1a1a", "send client udid=2b2b token=2b2b",
        "send unreg_mapping udid=1a1a",
      ])
    #expect(harness.state.value.registration?.token == Self.t2)
    #expect(harness.acknowledged.registration == PipelineHarness.registration(Self.t2))
  }

  @Test("a mapsync is held until the token is registered, and carries its udid")
  func mapsyncWaitsForRegistration() {
    let harness = PipelineHarness()
    let token = harness.scheduler.createHotObservable([
      .next(210, Self.t1.rawValue), .completed(215),
    ])
    let adds = harness.scheduler.createHotObservable([.next(220, [Self.a]), .completed(225)])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(token: token.asObservable(), addBatches: adds.asObservable()))
        .outcomes
    }
    #expect(
      res.events == [
        .next(220, .added(Self.uid(Self.a))),
        .next(260, .registered(Self.t1, response: "ok")),
        .next(310, .synced([Self.uid(Self.a)], response: "ok")),
        .completed(310),
      ])
    #expect(
      harness.sends == [
        Recorded(time: 210, value: "send client udid=1a1a token=1a1a"),
        Recorded(time: 260, value: "send mapsync udid=1a1a [\(Self.a)]"),
      ])
    #expect(harness.acknowledged.uids == [Self.a])
  }

  @Test("three changes during one sync in flight give exactly one more sync, of the newest list")
  func coalescing() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1))
    let adds = harness.scheduler.createHotObservable([
      .next(210, [Self.a]), .next(220, [Self.b]), .next(230, [Self.c]), .next(240, [Self.d]),
      .completed(245),
    ])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(addBatches: adds.asObservable())).outcomes
    }
    #expect(
      harness.sends == [
        Recorded(time: 210, value: "send mapsync udid=1a1a [\(Self.a)]"),
        Recorded(
          time: 260, value: "send mapsync udid=1a1a [\(Self.a),\(Self.b),\(Self.c),\(Self.d)]"),
      ])
    let synced = res.events.filter {
      if case .next(.synced) = $0.value { true } else { false }
    }
    #expect(synced.map(\.time) == [260, 310])
    #expect(res.events.last == .completed(310))
    #expect(harness.acknowledged.uids == [Self.a, Self.b, Self.c, Self.d])
  }

  @Test("a failed sync is an outcome, the list stays stored and pending, and the next change syncs")
  func failureThenNextChange() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1))
    let rejection = RequestFailure.status(400, body: "error: bad", retryAfter: nil)
    harness.script(.mapsync, [harness.failure(rejection, after: 10)])
    let adds = harness.scheduler.createHotObservable([
      .next(210, [Self.a]), .next(300, [Self.b]), .completed(305),
    ])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(addBatches: adds.asObservable())).outcomes
    }
    #expect(
      res.events == [
        .next(210, .added(Self.uid(Self.a))),
        .next(220, .failed(.request(.mapsync, rejection))),
        .next(300, .added(Self.uid(Self.b))),
        .next(350, .synced([Self.uid(Self.a), Self.uid(Self.b)], response: "ok")),
        .completed(350),
      ])
    #expect(harness.state.value.uids == [Self.a, Self.b])
  }

  @Test("transient failures are retried on the virtual clock with the policy's waits")
  func retriesOnVirtualClock() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1))
    let busy = RequestFailure.status(503, body: "busy", retryAfter: nil)
    harness.script(.mapsync, [harness.failure(busy), harness.failure(busy)])
    let adds = harness.scheduler.createHotObservable([.next(210, [Self.a]), .completed(215)])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start(disposed: 5000) {
      viewModel.transform(.init(addBatches: adds.asObservable())).outcomes
    }
    #expect(
      res.events == [
        .next(210, .added(Self.uid(Self.a))),
        .next(
          210, .retrying(.mapsync, attempt: 2, of: 3, delay: .milliseconds(500), reason: "\(busy)")),
        .next(710, .retrying(.mapsync, attempt: 3, of: 3, delay: .seconds(1), reason: "\(busy)")),
        .next(1760, .synced([Self.uid(Self.a)], response: "ok")),
        .completed(1760),
      ])
    #expect(harness.sends.map(\.time) == [210, 710, 1710])
  }

  @Test(
    "the time limit bounds every attempt and wait: each attempt gets the time left, none starts past it"
  )
  func timeLimit() {
    let harness = PipelineHarness(
      state: PipelineHarness.registered(token: Self.t1), timeLimit: .seconds(2))
    let refused = RequestFailure.transport(.unreachable(url: PipelineHarness.server, reason: "no"))
    let slow = RequestFailure.transport(.timedOut(url: PipelineHarness.server, after: .seconds(1)))
    harness.script(.mapsync, [harness.failure(refused), harness.failure(slow, after: 1000)])
    let adds = harness.scheduler.createHotObservable([.next(210, [Self.a]), .completed(215)])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start(disposed: 10_000) {
      viewModel.transform(.init(addBatches: adds.asObservable())).outcomes
    }
    // Attempt 1 fails at once, attempt 2 starts 0.5 s in and fails 1.5 s in;
    // the next wait (1 s) would end past the 2 s limit, so it gives up then.
    let given = RequestFailure.timeLimitReached(.seconds(2), attempts: 2, last: slow)
    #expect(
      res.events == [
        .next(210, .added(Self.uid(Self.a))),
        .next(
          210,
          .retrying(.mapsync, attempt: 2, of: 3, delay: .milliseconds(500), reason: "\(refused)")),
        .next(1710, .failed(.request(.mapsync, given))),
        .completed(1710),
      ])
    #expect(harness.attemptTimeouts.value == [.seconds(2), .milliseconds(1500)])
    #expect("\(given)".hasSuffix("(gave up after 2 attempts: the 2 s time limit)"))
    #expect(harness.state.value.difference(at: PipelineHarness.server).isPending)
  }

  @Test("sync registers a stored token this server has not acknowledged, then sends the list")
  func syncRegistersFirst() {
    let state = PipelineHarness.registered(token: Self.t1, uids: [Self.a], acknowledged: false)
    let harness = PipelineHarness(state: state)
    let syncs = harness.scheduler.createHotObservable([.next(210, ()), .completed(215)])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(syncRequests: syncs.asObservable())).outcomes
    }
    #expect(
      res.events == [
        .next(260, .registered(Self.t1, response: "ok")),
        .next(310, .synced([Self.uid(Self.a)], response: "ok")),
        .completed(310),
      ])
    #expect(harness.sends.map(\.value).map { $0.prefix(12) } == ["send client ", "send mapsync"])
    #expect(!harness.state.value.difference(at: PipelineHarness.server).isPending)
  }

  @Test("a registration the server refuses is reported, and the list is not sent")
  func syncRegistrationRefused() {
    let state = PipelineHarness.registered(token: Self.t1, uids: [Self.a], acknowledged: false)
    let harness = PipelineHarness(state: state)
    let refused = RequestFailure.status(400, body: "error: bad token", retryAfter: nil)
    harness.script(.client, [harness.failure(refused, after: 10)])
    let syncs = harness.scheduler.createHotObservable([.next(210, ()), .completed(215)])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(syncRequests: syncs.asObservable())).outcomes
    }
    // No other registration to fall back to: the token stays, not acknowledged.
    #expect(
      res.events == [
        .next(220, .failed(.registrationRejected(Self.t1, kept: nil, refused))), .completed(220),
      ])
    #expect(harness.sends.count == 1)
    #expect(harness.state.value.registration?.token == Self.t1)
  }

  @Test("a UID already in the list changes nothing and sends nothing")
  func duplicates() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1))
    let adds = harness.scheduler.createHotObservable([
      .next(210, [Self.a]), .next(300, [Self.a.lowercased()]), .completed(305),
    ])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(addBatches: adds.asObservable())).outcomes
    }
    #expect(
      res.events == [
        .next(210, .added(Self.uid(Self.a))),
        .next(260, .synced([Self.uid(Self.a)], response: "ok")),
        .next(300, .alreadyPresent(Self.uid(Self.a))),
        .completed(305),
      ])
    #expect(harness.sends.count == 1)
  }

  @Test("the store is written before the request is sent")
  func storeFirst() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1))
    let adds = harness.scheduler.createHotObservable([.next(210, [Self.a]), .completed(215)])
    let viewModel = SyncViewModel(environment: harness.environment)
    _ = harness.scheduler.start {
      viewModel.transform(.init(addBatches: adds.asObservable())).outcomes
    }
    #expect(
      harness.log.value.map(\.value) == ["store \(Self.a)", "send mapsync udid=1a1a [\(Self.a)]"])
  }

  @Test("bad input is an outcome, stores nothing and sends nothing")
  func badInput() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    let adds = harness.scheduler.createHotObservable([
      .next(210, [Self.b, "BAD&UID"]), .completed(211),
    ])
    let removals = harness.scheduler.createHotObservable([
      .next(220, [SyncViewModel.Removal.index(0), .index(5)]), .completed(221),
    ])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(addBatches: adds.asObservable(), removals: removals.asObservable()))
        .outcomes
    }
    #expect(
      res.events == [
        .next(210, .failed(.invalidUID("BAD&UID", .character(.uid, "&", position: 4)))),
        .next(220, .failed(.invalidIndex(5, count: 1))),
        .completed(221),
      ])
    #expect(harness.state.value.uids == [Self.a])
    #expect(harness.sends.isEmpty)
  }

  @Test("removal by index and by UID, all at once, then one sync")
  func removal() {
    let harness = PipelineHarness(
      state: PipelineHarness.registered(token: Self.t1, uids: [Self.a, Self.b, Self.c]))
    let removals = harness.scheduler.createHotObservable([
      .next(210, [SyncViewModel.Removal.index(2), .uid(Self.a.lowercased())]), .completed(211),
    ])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(removals: removals.asObservable())).outcomes
    }
    #expect(
      res.events == [
        .next(210, .removed(Self.a, index: 0)),
        .next(210, .removed(Self.c, index: 2)),
        .next(260, .synced([Self.uid(Self.b)], response: "ok")),
        .completed(260),
      ])
    #expect(harness.state.value.uids == [Self.b])
  }

  @Test("an addition that replaces the list: the others removed in the same change, its order kept")
  func replacingAddition() {
    let harness = PipelineHarness(
      state: PipelineHarness.registered(token: Self.t1, uids: [Self.a, Self.b, Self.c]))
    let given = [Self.d, Self.b.lowercased(), Self.d].map { UIDInput($0) }
    let additions = harness.scheduler.createHotObservable([
      .next(210, SyncViewModel.Addition(given, replacesList: true)), .completed(211),
    ])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(additions: additions.asObservable())).outcomes
    }
    #expect(
      res.events == [
        .next(210, .removed(Self.a, index: 0)),
        .next(210, .removed(Self.c, index: 2)),
        .next(210, .added(Self.uid(Self.d))),
        .next(210, .alreadyPresent(Self.uid(Self.b))),
        .next(210, .alreadyPresent(Self.uid(Self.d))),
        .next(260, .synced([Self.uid(Self.d), Self.uid(Self.b)], response: "ok")),
        .completed(260),
      ])
    #expect(harness.state.value.uids == [Self.d, Self.b])
    #expect(
      harness.log.value.map(\.value) == [
        "store \(Self.d),\(Self.b)", "send mapsync udid=1a1a [\(Self.d),\(Self.b)]",
      ])
  }

  @Test("a replacing addition with an invalid UID stores nothing, removes nothing, sends nothing")
  func replacingAdditionRefused() {
    let harness = PipelineHarness(
      state: PipelineHarness.registered(token: Self.t1, uids: [Self.a, Self.b]))
    let given = [UIDInput(Self.c), UIDInput("BAD&UID", location: "prefs.plist › UIDs item 1")]
    let additions = harness.scheduler.createHotObservable([
      .next(210, SyncViewModel.Addition(given, replacesList: true)), .completed(211),
    ])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(additions: additions.asObservable())).outcomes
    }
    #expect(
      res.events == [
        .next(
          210,
          .failed(
            .invalidUID(
              "BAD&UID", .character(.uid, "&", position: 4), location: "prefs.plist › UIDs item 1"))
        ),
        .completed(211),
      ])
    #expect(harness.state.value.uids == [Self.a, Self.b])
    #expect(harness.sends.isEmpty)
  }

  @Test("a sync request sends the stored list even when nothing is pending")
  func forcedSync() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.t1, uids: [Self.a]))
    let requests = harness.scheduler.createHotObservable([.next(210, ()), .completed(211)])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start {
      viewModel.transform(.init(syncRequests: requests.asObservable())).outcomes
    }
    #expect(
      res.events == [.next(260, .synced([Self.uid(Self.a)], response: "ok")), .completed(260)])
  }
}
