import Locking
import Reactive
import ReactiveTesting
import TPNSProtocol
import Testing

@testable import TPNSKit

/// The pipeline as `tpns watch` runs it: store events from a (virtual) watcher,
/// debounced on the test scheduler, as its input.
@Suite struct WatchPipelineTests {
  static let token = try! PushToken(String(repeating: "1a", count: 32), os: .ios)
  static func uids(_ count: Int) -> [String] {
    (0..<count).map { "WATCH\(String(repeating: "0", count: 14))\($0)" }
  }

  /// Store events for `harness`: each `changes` signal reads its in-memory store.
  static func events(
    _ harness: PipelineHarness, changes: TestableObservable<Void>,
    read: (@Sendable () -> StoreEvent)? = nil
  ) -> Observable<StoreEvent> {
    StoreWatcher.events(
      changes: changes.asObservable(), debounce: .milliseconds(200), scheduler: harness.scheduler,
      read: read ?? { [state = harness.state] in .changed(state.value) })
  }

  /// Changes the in-memory store at `time`, as another process would.
  static func edit(_ harness: PipelineHarness, at time: TestTime, uids: [String]) {
    harness.scheduler.scheduleAt(time) { [state = harness.state] in
      state.withLock { $0.uids = uids }
    }
  }

  @Test("a burst of five changes within the debounce window gives one sync of the last list")
  func burst() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.token))
    let lists = (1...5).map { Array(Self.uids(5).prefix($0)) }
    for (offset, list) in lists.enumerated() {
      Self.edit(harness, at: 210 + offset * 10, uids: list)
    }
    let changes = harness.scheduler.createHotObservable(
      (0..<5).map { Recorded.next(211 + $0 * 10, ()) })
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start(disposed: 2000) {
      viewModel.transform(.init(storeChanges: Self.events(harness, changes: changes))).outcomes
    }
    #expect(harness.sends.map(\.time) == [451])
    #expect(
      harness.sends.first?.value.hasSuffix("[\(Self.uids(5).joined(separator: ","))]") == true)
    #expect(res.events.count == 1)
  }

  @Test("a change during an in-flight sync gives exactly one follow-up sync")
  func changeDuringSync() {
    let harness = PipelineHarness(
      state: PipelineHarness.registered(token: Self.token), responseDelay: 300)
    Self.edit(harness, at: 210, uids: Self.uids(1))
    Self.edit(harness, at: 500, uids: Self.uids(2))
    Self.edit(harness, at: 520, uids: Self.uids(3))
    let changes = harness.scheduler.createHotObservable([
      .next(211, ()), .next(501, ()), .next(521, ()),
    ])
    let viewModel = SyncViewModel(environment: harness.environment)
    _ = harness.scheduler.start(disposed: 3000) {
      viewModel.transform(.init(storeChanges: Self.events(harness, changes: changes))).outcomes
    }
    // Sent at 411 (answered at 711); the reconciliation reads the store again
    // then and sends the newest list at once; the change seen at 721 finds
    // nothing left to send.
    #expect(harness.sends.map(\.time) == [411, 711])
    #expect(harness.acknowledged.uids == Self.uids(3))
  }

  @Test("a failure then a success gives retrying, then synced")
  func failureThenSuccess() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.token))
    let busy = RequestFailure.status(503, body: "busy", retryAfter: nil)
    harness.script(.mapsync, [harness.failure(busy)])
    Self.edit(harness, at: 210, uids: Self.uids(1))
    let changes = harness.scheduler.createHotObservable([.next(211, ())])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start(disposed: 3000) {
      viewModel.transform(.init(storeChanges: Self.events(harness, changes: changes))).outcomes
    }
    let uid = try! DeviceUID(Self.uids(1)[0])
    #expect(
      res.events == [
        .next(
          411, .retrying(.mapsync, attempt: 2, of: 3, delay: .milliseconds(500), reason: "\(busy)")),
        .next(961, .synced([uid], response: "ok")),
      ])
  }

  @Test("a corrupt store in the middle keeps the last good state and is reported once")
  func corruptInTheMiddle() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.token))
    let corrupt = StoreError.corrupt(path: "/s/state.plist", reason: .notADictionary)
    let reads = LockedState<[StoreEvent]>([
      .changed(PipelineHarness.registered(token: Self.token)), .unreadable(corrupt),
      .unreadable(corrupt),
    ])
    let changes = harness.scheduler.createHotObservable([.next(300, ()), .next(600, ())])
    let read: @Sendable () -> StoreEvent = {
      reads.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
    }
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start(disposed: 3000) {
      viewModel.transform(.init(storeChanges: Self.events(harness, changes: changes, read: read)))
        .outcomes
    }
    #expect(res.events == [.next(500, .failed(.store(corrupt)))])
    #expect(harness.sends.isEmpty)
    #expect(harness.state.value == PipelineHarness.registered(token: Self.token))
  }

  @Test("a deleted store is reported; a recreated one is picked up and synced")
  func deletedThenRecreated() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.token))
    let recreated = {
      var state = PipelineHarness.registered(token: Self.token)
      state.uids = Self.uids(2)
      return state
    }()
    let reads = LockedState<[StoreEvent]>([
      .changed(PipelineHarness.registered(token: Self.token)), .deleted, .changed(recreated),
    ])
    let read: @Sendable () -> StoreEvent = {
      reads.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
    }
    harness.scheduler.scheduleAt(700) { [state = harness.state] in state.withLock { $0 = recreated }
    }
    let changes = harness.scheduler.createHotObservable([.next(300, ()), .next(600, ())])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start(disposed: 3000) {
      viewModel.transform(.init(storeChanges: Self.events(harness, changes: changes, read: read)))
        .outcomes
    }
    #expect(res.events.first == .next(500, .storeDeleted))
    #expect(harness.sends.map(\.time) == [800])
    #expect(harness.acknowledged.uids == Self.uids(2))
  }

  @Test("a store that does not exist at the start is absent, not deleted; a later deletion is")
  func absentThenDeleted() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.token))
    let reads = LockedState<[StoreEvent]>([
      .deleted, .changed(PipelineHarness.registered(token: Self.token)), .deleted,
    ])
    let read: @Sendable () -> StoreEvent = {
      reads.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
    }
    let changes = harness.scheduler.createHotObservable([.next(300, ()), .next(600, ())])
    let viewModel = SyncViewModel(environment: harness.environment)
    let res = harness.scheduler.start(disposed: 3000) {
      viewModel.transform(.init(storeChanges: Self.events(harness, changes: changes, read: read)))
        .outcomes
    }
    #expect(res.events == [.next(200, .storeAbsent), .next(800, .storeDeleted)])
  }

  @Test("watch registers a stored token this server has not acknowledged, then syncs")
  func registersStoredToken() {
    let state = PipelineHarness.registered(
      token: Self.token, uids: Self.uids(1), acknowledged: false)
    let harness = PipelineHarness(state: state)
    let changes = harness.scheduler.createHotObservable([Recorded<Event<Void>>]())
    let viewModel = SyncViewModel(environment: harness.environment)
    _ = harness.scheduler.start(disposed: 3000) {
      viewModel.transform(.init(storeChanges: Self.events(harness, changes: changes))).outcomes
    }
    #expect(harness.sends.map { $0.value.split(separator: " ")[1] } == ["client", "mapsync"])
    #expect(harness.acknowledged.registration == PipelineHarness.registration(Self.token))
    #expect(harness.acknowledged.uids == Self.uids(1))
  }

  @Test("changes every 80 ms that never pause for the debounce still sync every max delay")
  func endlessChanges() {
    let harness = PipelineHarness(state: PipelineHarness.registered(token: Self.token))
    // 40 changes, 210 to 3330: each one a list of 1 to 10 UIDs, unlike the one before.
    let times = (0..<40).map { 210 + $0 * 80 }
    for (index, time) in times.enumerated() {
      Self.edit(harness, at: time, uids: Self.uids(index % 10 + 1))
    }
    let changes = harness.scheduler.createHotObservable(times.map { Recorded.next($0 + 1, ()) })
    let events = StoreWatcher.events(
      changes: changes.asObservable(), debounce: .milliseconds(200), maxDelay: .milliseconds(1000),
      scheduler: harness.scheduler
    ) { [state = harness.state] in .changed(state.value) }
    let viewModel = SyncViewModel(environment: harness.environment)
    _ = harness.scheduler.start(disposed: 6000) {
      viewModel.transform(.init(storeChanges: events)).outcomes
    }
    // Windows open at 211, 1251 and 2291 (the first change after each send).
    // Each send is answered 50 ms later, when the reconciliation reads the
    // store again and sends the change made meanwhile (at 1250, 2290, 3330);
    // so the last change is on the server at 3341, and the debounced event
    // at 3531 finds nothing left to send.
    #expect(harness.sends.map(\.time) == [1211, 1261, 2251, 2301, 3291, 3341])
    #expect(harness.acknowledged.uids == Self.uids(10))
  }
}
