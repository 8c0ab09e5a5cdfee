import Locking
import Reactive
import ReactiveTesting
import TPNSProtocol
import Testing

@testable import TPNSKit

/// The reconciliation with per-UID settings and the single-UID requests
/// (`mapping`, `rm_mapping`, `unreg_mapping`): the next step as a pure
/// function, then each flow on the virtual clock.
@Suite struct ReconcileStepTests {
  static let t1 = try! PushToken(String(repeating: "1a", count: 32), os: .ios)
  static let a = "AAAAAAAAAAAAAAAAAAAA"
  static let b = "BBBBBBBBBBBBBBBBBBBB"
  static let c = "CCCCCCCCCCCCCCCCCCCC"
  static let server = PipelineHarness.server
  static let busy = RequestFailure.status(503, body: "busy", retryAfter: nil)
  static let registration = PipelineHarness.registration(t1)

  static func uid(_ text: String) -> DeviceUID { try! DeviceUID(text) }
  static func settings(_ interval: Int? = nil, _ format: String? = nil) -> MappingSettings {
    try! MappingSettings(interval: interval, format: format)
  }

  /// Registered, `uids` desired and acknowledged, with `settings` desired
  /// and `acknowledgedSettings` acknowledged.
  static func state(
    _ uids: [String], settings: [String: MappingSettings] = [:],
    acknowledged acknowledgedUIDs: [String]? = nil,
    acknowledgedSettings: [String: MappingSettings] = [:]
  ) -> StoreContents {
    var state = PipelineHarness.registered(token: t1, uids: uids)
    state.settings = settings
    state.servers[server]?.uids = acknowledgedUIDs ?? uids
    state.servers[server]?.settings = acknowledgedSettings
    return state
  }

  /// A phone this store registered at the server before the desired one.
  static let formerPhone = Phone(os: .ios, udid: String(repeating: "9f", count: 32))

  /// `state` with ``formerPhone`` still to unmap at the server.
  static func withFormerPhone(_ state: StoreContents) -> StoreContents {
    var state = state
    state.servers[server]?.formerPhones = [formerPhone]
    return state
  }

  static func run(
    _ harness: PipelineHarness, _ input: (TestScheduler) -> SyncViewModel.Input
  ) -> [Recorded<Event<Outcome>>] {
    let viewModel = SyncViewModel(environment: harness.environment)
    let made = input(harness.scheduler)
    return harness.scheduler.start(disposed: 10_000) { viewModel.transform(made).outcomes }.events
  }

  static func once<T: Sendable>(_ value: T, at time: TestTime = 210) -> (TestScheduler) ->
    Observable<T>
  {
    { $0.createHotObservable([.next(time, value), .completed(time + 1)]).asObservable() }
  }

  // MARK: - The next step

  /// A state, a demand, and the step expected.
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var state: StoreContents
    var demand: Demand
    var step: ReconcileStep?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a settings change alone is a mapsync carrying the settings",
      state: state([a, b], settings: [a: settings(30)]), demand: Demand(),
      step: .sendList(registration, [uid(a), uid(b)], [uid(a): settings(30)])),
    Case(
      name: "settings acknowledged as desired: nothing",
      state: state([a], settings: [a: settings(30)], acknowledgedSettings: [a: settings(30)]),
      demand: Demand(), step: nil),
    Case(
      name: "a mapping request for a stored UID, with its stored settings",
      state: state([a, b], settings: [b: settings(nil, "f")], acknowledged: [a]),
      demand: Demand(mappingRequests: [.map(uid(b))]),
      step: .sendMappingRequest(registration, .map(uid(b)), settings(nil, "f"), taking: 1)),
    Case(
      name: "a request the list no longer agrees with is skipped",
      state: state([a], acknowledged: [a, b]),
      demand: Demand(mappingRequests: [.map(uid(c)), .removeMapping(uid(b))]),
      step: .sendMappingRequest(registration, .removeMapping(uid(b)), settings(), taking: 2)),
    Case(
      name: "unreg_mapping of everything once the list is empty",
      state: state([], acknowledged: [a]), demand: Demand(mappingRequests: [.unregister(nil)]),
      step: .sendMappingRequest(registration, .unregister(nil), settings(), taking: 1)),
    Case(
      name: "unreg_mapping of everything, but a UID was added since: the list is sent instead",
      state: state([c], acknowledged: [a]), demand: Demand(mappingRequests: [.unregister(nil)]),
      step: .sendList(registration, [uid(c)], [:])),
    Case(
      name: "a setting to clear: a mapsync without the UID first (leaving it out would keep it)",
      state: state(
        [a, b], settings: [a: settings(nil, "f")], acknowledgedSettings: [a: settings(30, "f")]),
      demand: Demand(mappingRequests: [.map(uid(a))]),
      step: .sendList(registration, [uid(b)], [uid(a): settings(nil, "f")])),
    Case(
      name: "a former phone the server holds is unmapped before the list",
      state: withFormerPhone(state([a], acknowledged: [])), demand: Demand(),
      step: .unmapFormerPhone(formerPhone)),
    Case(
      name: "a former phone refused in this reconciliation is passed over: the list is next",
      state: withFormerPhone(state([a], acknowledged: [])),
      demand: Demand(refusedFormerPhones: [formerPhone]),
      step: .sendList(registration, [uid(a)], [:])),
    Case(
      name: "a former phone refused, the list in line: nothing more in this reconciliation",
      state: withFormerPhone(state([a])), demand: Demand(refusedFormerPhones: [formerPhone]),
      step: nil),
    Case(
      name: "the same phone registered before with another os is not a former phone",
      state: {
        var changed = Self.state([a])
        changed.servers[server]?.formerPhones = [
          Phone(os: .android, appID: registration.phone.appID, udid: registration.phone.udid)
        ]
        return changed
      }(), demand: Demand(), step: nil),
    Case(
      name: "registering comes first",
      state: {
        var unregistered = Self.state([a])
        unregistered.servers = [:]
        return unregistered
      }(),
      demand: Demand(mappingRequests: [.map(uid(a))]), step: .register(registration)),
  ]

  @Test("the next step of a reconciliation", arguments: cases)
  func next(testCase: Case) {
    #expect(
      ReconcileStep.next(in: testCase.state, at: Self.server, demand: testCase.demand)
        == testCase.step)
  }

  // MARK: - Settings

  @Test(
    "add with settings: the mapsync entry carries them and the server's acknowledged settings follow; the same settings again send nothing new"
  )
  func addWithSettings() throws {
    let harness = PipelineHarness(state: Self.state([Self.a]))
    let update = try MappingSettingsUpdate(interval: .set(30), format: .set("m"))
    let events = Self.run(harness) {
      .init(additions: Self.once(.init([Self.b], settings: update))($0))
    }
    #expect(
      events == [
        .next(210, .added(Self.uid(Self.b), settings: Self.settings(30, "m"))),
        .next(260, .synced([Self.uid(Self.a), Self.uid(Self.b)], response: "ok")),
        .completed(260),
      ])
    #expect(harness.sends.map(\.value) == ["send mapsync udid=1a1a [\(Self.a),\(Self.b){30,m}]"])
    #expect(harness.acknowledged.settings == [Self.b: Self.settings(30, "m")])
    #expect(!harness.state.value.difference(at: Self.server).isPending)

    let again = PipelineHarness(state: harness.state.value)
    let repeated = Self.run(again) {
      .init(additions: Self.once(.init([Self.b], settings: update))($0))
    }
    #expect(repeated == [.next(210, .alreadyPresent(Self.uid(Self.b))), .completed(211)])
    #expect(again.sends.isEmpty)
  }

  @Test(
    "a settings change of a stored UID is stored first and pending until the server acknowledges it"
  )
  func settingsChangePending() throws {
    let harness = PipelineHarness(
      state: Self.state(
        [Self.a], settings: [Self.a: Self.settings(30, "m")],
        acknowledgedSettings: [Self.a: Self.settings(30, "m")]))
    harness.failEveryAttempt(of: .mapsync, with: Self.busy)
    let update = try MappingSettingsUpdate(interval: .set(60))
    let events = Self.run(harness) {
      .init(additions: Self.once(.init([Self.a], settings: update))($0))
    }
    #expect(events.first == .next(210, .settingsChanged(Self.uid(Self.a), Self.settings(60, "m"))))
    #expect(harness.state.value.settings == [Self.a: Self.settings(60, "m")])
    #expect(harness.acknowledged.settings == [Self.a: Self.settings(30, "m")])
    let difference = harness.state.value.difference(at: Self.server)
    #expect(difference.toUpdate == [Self.a])
    #expect(difference.toAdd == [] && difference.toRemove == [])
    #expect(difference.nextCommand == "tpns sync")

    let later = PipelineHarness(state: harness.state.value)
    _ = Self.run(later) { .init(syncRequests: Self.once(())($0)) }
    #expect(later.sends.map(\.value) == ["send mapsync udid=1a1a [\(Self.a){60,m}]"])
    #expect(later.acknowledged.settings == [Self.a: Self.settings(60, "m")])
    #expect(!later.state.value.difference(at: Self.server).isPending)
  }

  // MARK: - Single-UID requests

  @Test("mapping: the UID is stored, then sent alone with cmd=mapping and its settings; no mapsync")
  func mapping() throws {
    let harness = PipelineHarness(state: Self.state([Self.a]))
    let update = try MappingSettingsUpdate(interval: .set(5))
    let events = Self.run(harness) {
      .init(additions: Self.once(.init([Self.b], settings: update, sending: .mapping))($0))
    }
    #expect(
      events == [
        .next(210, .added(Self.uid(Self.b), settings: Self.settings(5))),
        .next(260, .mapped(Self.uid(Self.b), Self.settings(5), response: "ok")),
        .completed(260),
      ])
    #expect(harness.sends.map(\.value) == ["send mapping udid=1a1a uid=\(Self.b) interval=5"])
    #expect(harness.acknowledged.uids == [Self.a, Self.b])
    #expect(harness.acknowledged.settings == [Self.b: Self.settings(5)])
    #expect(!harness.state.value.difference(at: Self.server).isPending)
  }

  @Test(
    "a cleared setting: leaving it out keeps it at the server, so the mapping is removed (a mapsync without it) and made again"
  )
  func clearedSetting() throws {
    let harness = PipelineHarness(
      state: Self.state(
        [Self.a, Self.b], settings: [Self.a: Self.settings(30, "m")],
        acknowledgedSettings: [Self.a: Self.settings(30, "m")]))
    let update = try MappingSettingsUpdate(interval: .clear)
    let events = Self.run(harness) {
      .init(additions: Self.once(.init([Self.a], settings: update))($0))
    }
    #expect(
      events == [
        .next(210, .settingsChanged(Self.uid(Self.a), Self.settings(nil, "m"))),
        .next(260, .synced([Self.uid(Self.b)], response: "ok")),
        .next(310, .synced([Self.uid(Self.a), Self.uid(Self.b)], response: "ok")),
        .completed(310),
      ])
    #expect(
      harness.sends.map(\.value) == [
        "send mapsync udid=1a1a [\(Self.b)]", "send mapsync udid=1a1a [\(Self.a){,m},\(Self.b)]",
      ])
    #expect(harness.acknowledged.settings == [Self.a: Self.settings(nil, "m")])
    #expect(!harness.state.value.difference(at: Self.server).isPending)
  }

  @Test(
    "mapping with a cleared setting: the mapping is removed first, then made again by cmd=mapping"
  )
  func mappingClearedSetting() throws {
    let harness = PipelineHarness(
      state: Self.state(
        [Self.a], settings: [Self.a: Self.settings(30)],
        acknowledgedSettings: [Self.a: Self.settings(30)]))
    let update = try MappingSettingsUpdate(interval: .clear)
    _ = Self.run(harness) {
      .init(additions: Self.once(.init([Self.a], settings: update, sending: .mapping))($0))
    }
    #expect(
      harness.sends.map(\.value) == [
        "send mapsync udid=1a1a []", "send mapping udid=1a1a uid=\(Self.a)",
      ])
    #expect(harness.acknowledged.uids == [Self.a])
    #expect(harness.acknowledged.settings == [:])
    #expect(!harness.state.value.difference(at: Self.server).isPending)
  }

  @Test("rm-mapping: the UID and its settings leave the store, then cmd=rm_mapping; no mapsync")
  func removeMapping() {
    let harness = PipelineHarness(
      state: Self.state(
        [Self.a, Self.b], settings: [Self.b: Self.settings(5)],
        acknowledgedSettings: [Self.b: Self.settings(5)]))
    let events = Self.run(harness) { .init(unmappings: Self.once(.removeMapping(Self.b))($0)) }
    #expect(
      events == [
        .next(210, .removed(Self.b, index: 1)),
        .next(260, .unmapped(Self.uid(Self.b), .rmMapping, response: "ok")),
        .completed(260),
      ])
    #expect(harness.sends.map(\.value) == ["send rm_mapping udid=1a1a uid=\(Self.b)"])
    #expect(harness.state.value.uids == [Self.a])
    #expect(harness.state.value.settings == [:])
    #expect(harness.acknowledged.uids == [Self.a])
    #expect(harness.acknowledged.settings == [:])
  }

  @Test(
    "rm-mapping of a UID no longer stored that the server holds sends its removal; one neither stored nor held is an error and sends nothing"
  )
  func removeMappingAlreadyRemoved() {
    let harness = PipelineHarness(state: Self.state([Self.a], acknowledged: [Self.a, Self.b]))
    let events = Self.run(harness) { .init(unmappings: Self.once(.removeMapping(Self.b))($0)) }
    #expect(events.first == .next(210, .alreadyRemoved(Self.uid(Self.b))))
    #expect(harness.sends.map(\.value) == ["send rm_mapping udid=1a1a uid=\(Self.b)"])
    #expect(harness.acknowledged.uids == [Self.a])

    let none = PipelineHarness(state: Self.state([Self.a]))
    let refused = Self.run(none) { .init(unmappings: Self.once(.removeMapping(Self.c))($0)) }
    #expect(refused == [.next(210, .failed(.notInList(Self.uid(Self.c)))), .completed(211)])
    #expect(none.sends.isEmpty)
  }

  @Test("unregister: every UID leaves the store, then one cmd=unreg_mapping without a uid")
  func unregisterAll() {
    let harness = PipelineHarness(
      state: Self.state([Self.a, Self.b], settings: [Self.a: Self.settings(5)]))
    let events = Self.run(harness) { .init(unmappings: Self.once(.unregister([]))($0)) }
    #expect(
      events == [
        .next(210, .removed(Self.a, index: 0)), .next(210, .removed(Self.b, index: 1)),
        .next(260, .unmapped(nil, .unregMapping, response: "ok")),
        .completed(260),
      ])
    #expect(harness.sends.map(\.value) == ["send unreg_mapping udid=1a1a"])
    #expect(harness.state.value.uids == [] && harness.state.value.settings == [:])
    #expect(harness.acknowledged.uids == [])
    #expect(!harness.state.value.difference(at: Self.server).isPending)
  }

  @Test("unregister with an empty list still clears the server (one unreg_mapping)")
  func unregisterEmpty() {
    let harness = PipelineHarness(state: Self.state([]))
    let events = Self.run(harness) { .init(unmappings: Self.once(.unregister([]))($0)) }
    #expect(events == [.next(260, .unmapped(nil, .unregMapping, response: "ok")), .completed(260)])
  }

  @Test("unregister --uid: those UIDs leave the store, one cmd=unreg_mapping with a uid each")
  func unregisterSome() {
    let harness = PipelineHarness(state: Self.state([Self.a, Self.b, Self.c]))
    _ = Self.run(harness) { .init(unmappings: Self.once(.unregister([Self.c, Self.a]))($0)) }
    #expect(
      harness.sends.map(\.value) == [
        "send unreg_mapping udid=1a1a uid=\(Self.a)", "send unreg_mapping udid=1a1a uid=\(Self.c)",
      ])
    #expect(harness.state.value.uids == [Self.b])
    #expect(harness.acknowledged.uids == [Self.b])
  }

  @Test(
    "a server that forgot the phone answers a mapping with 'not registered': registered again, then the mapping is sent again, then the rest of the list"
  )
  func mappingAtForgetfulServer() {
    let harness = PipelineHarness(state: Self.state([Self.a]))
    let forgotten = RequestFailure.status(
      400, body: "error: udid '1a1a' is not registered", retryAfter: nil)
    harness.script(.mapping, [harness.failure(forgotten, after: 10)])
    let events = Self.run(harness) {
      .init(additions: Self.once(.init([Self.b], sending: .mapping))($0))
    }
    #expect(events.contains(.next(220, .registrationLost(server: Self.server))))
    #expect(
      harness.sends.map(\.value) == [
        "send mapping udid=1a1a uid=\(Self.b)", "send client udid=1a1a token=1a1a",
        "send mapping udid=1a1a uid=\(Self.b)", "send mapsync udid=1a1a [\(Self.a),\(Self.b)]",
      ])
    #expect(!harness.state.value.difference(at: Self.server).isPending)
  }

  @Test(
    "a mapping that fails for good leaves the UID stored and pending; a sync sends it in the list")
  func mappingFailure() {
    let harness = PipelineHarness(state: Self.state([Self.a]))
    harness.failEveryAttempt(of: .mapping, with: Self.busy)
    let events = Self.run(harness) {
      .init(additions: Self.once(.init([Self.b], sending: .mapping))($0))
    }
    let failed = events.compactMap { recorded -> CommandName? in
      guard case .failed(.request(let command, _))? = recorded.value.element else { return nil }
      return command
    }
    #expect(failed == [.mapping])
    #expect(harness.state.value.uids == [Self.a, Self.b])
    #expect(harness.state.value.difference(at: Self.server).toAdd == [Self.b])
    let later = PipelineHarness(state: harness.state.value)
    _ = Self.run(later) { .init(syncRequests: Self.once(())($0)) }
    #expect(later.sends.map(\.value) == ["send mapsync udid=1a1a [\(Self.a),\(Self.b)]"])
  }

  @Test("many single-UID requests in one run are all sent (each is a step of its own)")
  func manyRequests() {
    let uids = "ABCDEFGHJKLM".map { String(repeating: String($0), count: 20) }
    let harness = PipelineHarness(state: Self.state(uids))
    _ = Self.run(harness) { .init(unmappings: Self.once(.unregister(uids))($0)) }
    #expect(harness.sends.count == 12)
    #expect(harness.acknowledged.uids == [])
  }
}
