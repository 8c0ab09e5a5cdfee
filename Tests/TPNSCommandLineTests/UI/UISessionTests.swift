import Reactive
import ReactiveTesting
import TPNSKit
import TPNSProtocol
import Terminal
import Testing

@testable import TPNSCommandLine

/// The screen of `tpns ui` as a pure function of keys and the pipeline's
/// outputs, on the virtual clock: marbles of what a person would see.
@Suite struct UISessionTests {
  typealias H = UIHarness

  @Test("typing a UID character by character flips canAdd at the 20th valid character")
  func canAddFlips() {
    let harness = UIHarness(state: H.registered())
    var keys: [Recorded<Event<Key>>] = H.uid1.enumerated().map { index, character in
      .next(210 + index * 10, .character(character))
    }
    keys.append(.next(410, .character("X")))
    let events = harness.run(keys: keys)
    // The 20th character comes at 400; a 21st at 410 makes it invalid again.
    #expect(
      changes(events, \.canAdd) == [
        Recorded(time: 200, value: false), .init(time: 400, value: true),
        .init(time: 410, value: false),
      ])
    let renderer = UIRenderer(server: H.server, palette: .plain)
    let before = renderer.frame(state(at: 390, events)!, columns: 80, rows: 24)
    let at = renderer.frame(state(at: 400, events)!, columns: 80, rows: 24)
    #expect(before.lines[4].contains("  Add  ") && !before.lines[4].contains("[ Add ]"))
    #expect(before.lines[5].contains("A UID must be 20 characters, got 19: 1 missing"))
    #expect(at.lines[4].contains("[ Add ]"))
    #expect(at.lines[5].contains("\(H.uid1) is a valid UID"))
    #expect(harness.sends.value == [])
  }

  @Test("Enter adds the typed UID, upper-cased, and it is synced; the field is cleared")
  func add() {
    let harness = UIHarness(state: H.registered())
    let keys = H.typing(H.uid1.lowercased(), at: 210) + [.next(220, .enter)]
    let events = harness.run(keys: keys)
    #expect(
      changes(events, \.list) == [.init(time: 200, value: []), .init(time: 220, value: [H.uid1])])
    #expect(state(at: 210, events)?.uidField.text == H.uid1.lowercased())
    #expect(state(at: 220, events)?.uidField.text == "")
    #expect(harness.sends.value == [.init(time: 220, value: "mapsync \(H.uid1)")])
    #expect(
      changes(events, \.status?.text).suffix(2) == [
        .init(time: 220, value: "added \(H.uid1)"), .init(time: 270, value: "synced 1 UID"),
      ])
    #expect(
      changes(events, { $0.pending.contains(H.uid1) }) == [
        .init(time: 200, value: false), .init(time: 220, value: true),
        .init(time: 270, value: false),
      ])
  }

  @Test("Enter in the UID field while canAdd is false adds nothing and says why")
  func addRefused() {
    let harness = UIHarness(state: H.registered())
    let events = harness.run(keys: H.typing("ABC", at: 210) + [.next(220, .enter)])
    #expect(
      state(at: 220, events)?.status?.text == "A UID must be 20 characters, got 3: 17 missing")
    #expect(harness.sends.value == [])
    #expect(harness.state.value.uids == [])
  }

  @Test("a token entered while another waits to be retried cancels that registration")
  func tokenCancelsRegistration() {
    let harness = UIHarness()
    harness.fail()
    let keys =
      H.typing(H.tokenA, at: 210) + [
        .next(211, .enter), .next(299, .up), .next(299, .control("u")),
      ]
      + H.typing(H.tokenB, at: 300) + [.next(301, .enter)]
    let events = harness.run(keys: keys)
    // A fails at 211 and would be retried after 0.5 s, at 711; B, entered at
    // 301, ends that wait: A is never sent again, B is registered at 351.
    #expect(
      harness.sends.value == [
        .init(time: 211, value: "client …a1a1a1"), .init(time: 301, value: "client …b2b2b2"),
      ])
    #expect(
      changes(events, \.status?.text) == [
        .init(time: 200, value: nil),
        .init(time: 211, value: "registering …a1a1a1"),
        .init(
          time: 211,
          value: "retrying in 0.5 s (attempt 2/3): client: the server answered 503: busy"),
        .init(time: 301, value: "registering …b2b2b2 (cancelled registering …a1a1a1)"),
        .init(time: 351, value: "registered …b2b2b2"),
      ])
    #expect(
      changes(events, \.registering) == [
        .init(time: 200, value: nil), .init(time: 211, value: "…a1a1a1"),
        .init(time: 301, value: "…b2b2b2"), .init(time: 351, value: nil),
      ])
    let last = state(at: 3000, events)
    #expect(last?.token == "…b2b2b2")
    #expect(last?.isRegistered == true)
    #expect(harness.state.value.acknowledged(at: H.server).registration?.token.rawValue == H.tokenB)
  }

  @Test(
    "a token entered while the older one's request is on the wire: that request finishes, then the newer is registered"
  )
  func tokenDuringRequest() {
    let harness = UIHarness(delay: 100)
    let keys =
      H.typing(H.tokenA, at: 210) + [
        .next(211, .enter), .next(249, .up), .next(249, .control("u")),
      ]
      + H.typing(H.tokenB, at: 250) + [.next(251, .enter)]
    _ = harness.run(keys: keys)
    // The server may be acting on A: its answer is recorded, B follows, and
    // A's phone (its udid is its token) is unmapped.
    #expect(
      harness.sends.value.map(\.value) == [
        "client …a1a1a1", "client …b2b2b2", "unreg_mapping",
      ])
    #expect(harness.state.value.acknowledged(at: H.server).registration?.token.rawValue == H.tokenB)
  }

  @Test("a store change from outside appears in the list, marked pending, then is synced")
  func storeChangeFromOutside() {
    let harness = UIHarness(state: H.registered(uids: [H.uid1]))
    harness.scheduler.scheduleAt(290) { [state = harness.state] in
      state.withLock { $0.uids.append(H.uid2) }
    }
    let signals = harness.scheduler.createHotObservable([.next(300, ())])
    let storeChanges = StoreWatcher.events(
      changes: signals.asObservable(), debounce: .milliseconds(50),
      scheduler: harness.scheduler, read: { [state = harness.state] in .changed(state.value) })
    let events = harness.run(keys: [], storeChanges: storeChanges)
    #expect(
      changes(events, \.list) == [
        .init(time: 200, value: [H.uid1]), .init(time: 350, value: [H.uid1, H.uid2]),
      ])
    #expect(
      changes(events, { $0.pending.sorted() }) == [
        .init(time: 200, value: []), .init(time: 350, value: [H.uid2]), .init(time: 400, value: []),
      ])
    #expect(harness.sends.value == [.init(time: 350, value: "mapsync \(H.uid1),\(H.uid2)")])
    let frame = UIRenderer(server: H.server, palette: .plain)
      .frame(state(at: 350, events)!, columns: 80, rows: 24)
    #expect(frame.lines[8] == "     1  \(H.uid2)  pending")
  }

  @Test("Delete removes the selected row, s sends the list again, q quits")
  func deleteSyncQuit() {
    let harness = UIHarness(state: H.registered(uids: [H.uid1, H.uid2]))
    let keys: [Recorded<Event<Key>>] = [
      .next(210, .escape), .next(220, .down), .next(230, .delete), .next(300, .character("s")),
      .next(400, .character("q")),
    ]
    let events = harness.run(keys: keys)
    #expect(
      changes(events, \.focus) == [.init(time: 200, value: .uid), .init(time: 210, value: .list)])
    #expect(
      changes(events, \.selection) == [
        .init(time: 200, value: 0), .init(time: 220, value: 1), .init(time: 230, value: 0),
      ])
    #expect(
      changes(events, \.list) == [
        .init(time: 200, value: [H.uid1, H.uid2]), .init(time: 230, value: [H.uid1]),
      ])
    #expect(
      harness.sends.value == [
        .init(time: 230, value: "mapsync \(H.uid1)"), .init(time: 300, value: "mapsync \(H.uid1)"),
      ])
    #expect(
      changes(events, \.exit) == [.init(time: 200, value: nil), .init(time: 400, value: .quit)])
  }

  @Test(
    "with no store, the hints are what happens: a UID is not added, Up goes to the token, which creates the store"
  )
  func hintsWithoutStore() {
    let harness = UIHarness()
    let keys =
      [.next(205, .down)] + H.typing(H.uid1, at: 210) + [.next(220, .enter), .next(230, .up)]
      + H.typing(H.tokenA, at: 240) + [.next(250, .enter)]
    let events = harness.run(keys: keys)
    #expect(state(at: 220, events)?.status?.text == "register a token first: Up to the token field")
    #expect(state(at: 220, events)?.list == [])
    #expect(state(at: 230, events)?.focus == .token)
    #expect(harness.state.value.registration?.token.rawValue == H.tokenA)
    #expect(harness.sends.value.first == .init(time: 250, value: "client …a1a1a1"))
    let line = UserInterface.status(
      of: .storeAbsent,
      formatting: OutcomeFormatting(
        options: H.options, mask: TokenMask(showsTokens: false), namesServer: false))
    #expect(line.text == "no store yet: a token entered here creates it")
  }

  @Test(
    "a retry's wait is said in milliseconds below 0.1 s, 'now' below half of one, never as 0 s",
    arguments: [
      (Duration.milliseconds(4), "retrying in 4 ms"), (.milliseconds(99), "retrying in 99 ms"),
      (.milliseconds(100), "retrying in 0.1 s"), (.milliseconds(1_250), "retrying in 1.3 s"),
      (.zero, "retrying now"), (.microseconds(400), "retrying now"),
      (.microseconds(99_700), "retrying in 0.1 s"),
    ])
  func retryWait(delay: Duration, text: String) {
    let formatting = OutcomeFormatting(
      options: H.options, mask: TokenMask(showsTokens: false), namesServer: false)
    let line = formatting.line(
      .retrying(.client, attempt: 2, of: 3, delay: delay, reason: "the server answered 503"))
    #expect(line == text + " (attempt 2/3): client: the server answered 503")
  }

  @Test(
    "typing a UID the list has: the pipeline's canAdd is true, Add stays disabled with the reason")
  func duplicateTyped() {
    let harness = UIHarness(state: H.registered(uids: [H.uid1]))
    let events = harness.run(keys: H.typing(H.uid1, at: 210) + [.next(220, .enter)])
    let typed = state(at: 210, events)!
    #expect(typed.canAdd && !typed.addEnabled)
    let frame = UIRenderer(server: H.server, palette: .plain).frame(typed, columns: 80, rows: 24)
    #expect(frame.lines[4].contains("  Add  ") && !frame.lines[4].contains("[ Add ]"))
    #expect(frame.lines[5].contains("\(H.uid1) is in the list already (row 0)"))
    #expect(
      state(at: 220, events)?.status?.text
        == "\(H.uid1) is in the list already (row 0): nothing to add")
    #expect(harness.sends.value == [])
  }

  @Test("a token the server refuses stays in the field, the server's reason under it")
  func refusedTokenKept() {
    let harness = UIHarness()
    let refusal = harness.scheduler.createColdObservable(
      [
        .error(
          10, RequestFailure.status(400, body: "bad token", retryAfter: nil), HTTPResponse.self)
      ])
    harness.scripted.withLock { $0.append(refusal.asObservable()) }
    let events = harness.run(keys: H.typing(H.tokenA, at: 210) + [.next(211, .enter)])
    let last = state(at: 3000, events)!
    #expect(last.tokenField.text == H.tokenA)
    #expect(last.tokenReason?.contains("the server answered 400: bad token") == true)
    #expect(last.registering == nil)
    let frame = UIRenderer(server: H.server, palette: .plain).frame(last, columns: 80, rows: 24)
    #expect(frame.lines[3].hasPrefix(" failed: the server rejected the token …a1a1a1"))
  }
}
