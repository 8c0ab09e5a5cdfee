import TPNSKit
import TPNSProtocol
import Terminal
import Testing

@testable import TPNSCommandLine

/// The reducer alone: a key or a pipeline output in, the state and the
/// pipeline's inputs out.
@Suite struct UIStateTests {
  static let context = UIHarness.context

  static func pressing(_ keys: [Key], from start: UIState) -> (UIState, [UIAction]) {
    var state = start
    var actions: [UIAction] = []
    for key in keys { actions += state.reduce(.key(key), context: context) }
    return (state, actions)
  }

  @Test(
    "keys move the focus: Tab, Shift-Tab, Esc, Up and Down",
    arguments: [
      ([Key.tab], UIState.Focus.list),
      ([.tab, .tab], .token),
      ([.backTab], .token),
      ([.escape], .list),
      ([.up], .token),
      ([.down], .list),
      ([.up, .down], .uid),
      ([.escape, .up], .list),
    ] as [([Key], UIState.Focus)])
  func focus(_ keys: [Key], _ focus: UIState.Focus) {
    #expect(Self.pressing(keys, from: UIState(tokenStored: true)).0.focus == focus)
  }

  @Test("editing the UID field sends each new text to the pipeline's uidText")
  func editing() {
    let (state, actions) = Self.pressing(
      [.character("a"), .character("b"), .left, .character("x"), .backspace, .end, .delete],
      from: UIState(tokenStored: true))
    #expect(state.uidField.text == "ab")
    #expect(actions == [.uidText("a"), .uidText("ab"), .uidText("axb"), .uidText("ab")])
  }

  @Test("Enter adds only when canAdd is true: a tap, then the field emptied")
  func enter() {
    var state = UIState(tokenStored: true)
    _ = state.reduce(.canAdd(true), context: Self.context)
    state.uidField.text = UIHarness.uid1
    #expect(state.reduce(.key(.enter), context: Self.context) == [.addTap, .uidText("")])
    #expect(state.uidField.text == "")
    _ = state.reduce(.canAdd(false), context: Self.context)
    #expect(state.reduce(.key(.enter), context: Self.context) == [])
  }

  @Test("a valid UID without a token: Enter says to register one first")
  func noToken() {
    var state = UIState(tokenStored: false)
    state.focus = .uid
    state.uidField.text = UIHarness.uid1
    _ = state.reduce(.key(.enter), context: Self.context)
    #expect(state.status?.text == "register a token first: Up to the token field")
    // And Up does go there.
    _ = state.reduce(.key(.up), context: Self.context)
    #expect(state.focus == .token)
  }

  @Test("the token field: Enter registers the trimmed text, and an empty one is a hint")
  func token() {
    var state = UIState(tokenStored: false)
    #expect(state.reduce(.key(.enter), context: Self.context) == [])
    #expect(
      state.status?.text == "type the phone's token (64 hex characters): Enter registers it")
    let (typed, actions) = Self.pressing(
      UIHarness.typing(" \(UIHarness.tokenA) ", at: 0).compactMap(\.value.element) + [.enter],
      from: UIState(tokenStored: false))
    #expect(actions == [.token(UIHarness.tokenA)])
    #expect(typed.registering == "…a1a1a1" && typed.focus == .uid)
    // The token stays in the field until the server acknowledges it.
    #expect(typed.tokenField.text == " \(UIHarness.tokenA) ")
  }

  @Test(
    "in the list: Delete and Backspace remove the selected UID, s syncs, q quits",
    arguments: [
      (Key.delete, [UIAction.remove(UIHarness.uid2)], nil),
      (.backspace, [.remove(UIHarness.uid2)], nil),
      (.character("s"), [.sync], nil),
      (.character("q"), [], UIState.Exit.quit),
      (.control("c"), [], .interrupted),
      (.character("x"), [], nil),
    ] as [(Key, [UIAction], UIState.Exit?)])
  func list(_ key: Key, _ actions: [UIAction], _ exit: UIState.Exit?) {
    var state = UIState.initial(
      UIHarness.registered(uids: [UIHarness.uid1, UIHarness.uid2]), context: Self.context)
    state.focus = .list
    state.selection = 1
    #expect(state.reduce(.key(key), context: Self.context) == actions)
    #expect(state.exit == exit)
  }

  @Test("q and s are typed into a field, not taken as keys; Ctrl-C quits from anywhere")
  func lettersInFields() {
    let (state, actions) = Self.pressing(
      [.character("q"), .character("s")], from: UIState(tokenStored: true))
    #expect(state.exit == nil && actions == [.uidText("q"), .uidText("qs")])
    #expect(Self.pressing([.control("c")], from: state).0.exit == .interrupted)
  }

  @Test("a shorter list keeps the selection on a row")
  func selectionClamped() {
    var state = UIState(tokenStored: true)
    _ = state.reduce(.list([UIHarness.uid1, UIHarness.uid2]), context: Self.context)
    state.selection = 1
    _ = state.reduce(.list([UIHarness.uid1]), context: Self.context)
    #expect(state.selection == 0)
  }

  @Test(
    "the UID field's reason, in place, as the CLI words it",
    arguments: [
      ("", "type a UID: 20 letters or digits", false),
      ("ABCDEFGHJKLMN", "A UID must be 20 characters, got 13: 7 missing", false),
      ("ABCDEFGHJKLMNPRSTUVWXY", "A UID must be 20 characters, got 22: 2 too many", false),
      (
        "ABCDé", "character U+00E9 at position 5 is not allowed in a UID (only A-Z and 0-9)", false
      ),
      ("abcdefghjklmnprstuvw", "ABCDEFGHJKLMNPRSTUVW is a valid UID", true),
    ])
  func hint(_ typed: String, _ text: String, _ isValid: Bool) {
    let hint = UIDHint(typed)
    #expect(hint.text == text)
    #expect(hint.isValid == isValid)
  }

  @Test("Up on row 0 of the list stays in the list; on another row it selects the row above")
  func upInList() {
    var state = UIState(tokenStored: true)
    _ = state.reduce(.list([UIHarness.uid1, UIHarness.uid2]), context: Self.context)
    state.focus = .list
    state.selection = 1
    let (after, actions) = Self.pressing([.up, .up, .up], from: state)
    #expect(after.focus == .list && after.selection == 0 && actions == [])
  }

  @Test("a UID the list has already: Add disabled, the reason under the field, Enter adds nothing")
  func duplicateUID() {
    var state = UIState(tokenStored: true)
    _ = state.reduce(.list([UIHarness.uid2, UIHarness.uid1]), context: Self.context)
    _ = state.reduce(.canAdd(true), context: Self.context)
    state.uidField = TextField(text: UIHarness.uid1.lowercased(), cursor: 20)
    let reason = "\(UIHarness.uid1) is in the list already (row 1): nothing to add"
    #expect(state.uidHint == UIDHint(UIHarness.uid1, list: [UIHarness.uid2, UIHarness.uid1]))
    #expect(state.uidHint.text == reason && !state.uidHint.isValid)
    #expect(!state.addEnabled)
    let frame = UIRenderer(server: UIHarness.server, palette: .plain)
      .frame(state, columns: 80, rows: 24)
    #expect(frame.lines[4].contains("  Add  ") && !frame.lines[4].contains("[ Add ]"))
    #expect(frame.lines[5] == "       " + reason)
    #expect(state.reduce(.key(.enter), context: Self.context) == [])
    #expect(state.status?.text == reason)
    #expect(state.uidField.text == UIHarness.uid1.lowercased())
  }

  @Test(
    "s without a token sends nothing and says what to do; with one it sends the list",
    arguments: [
      (
        false,
        [UIAction](),
        "no token yet: Tab to the token field, type the phone's token and press Enter; "
          + "then s sends the list"
      ),
      (true, [.sync], "sending the list again"),
    ])
  func syncWithoutToken(_ stored: Bool, _ actions: [UIAction], _ text: String) {
    var state = UIState.initial(
      stored ? UIHarness.registered(uids: [UIHarness.uid1]) : StoreContents(),
      context: Self.context)
    state.focus = .list
    #expect(state.reduce(.key(.character("s")), context: Self.context) == actions)
    #expect(state.status?.text == text)
    // And Tab goes where the hint says.
    if !stored { #expect(Self.pressing([.tab], from: state).0.focus == .token) }
  }

  static let storeError = StoreError.corrupt(path: "/tmp/state.plist", reason: .empty)

  @Test(
    "a line about the store clears once the store reads again; any other outcome's stays",
    arguments: [
      (Outcome.failed(.store(storeError)), true),
      (.storeDeleted, true),
      (.storeAbsent, true),
      (.synced([], response: "ok"), false),
      (.failed(.request(.mapsync, UIHarness.busy)), false),
    ])
  func storeLineClears(_ outcome: Outcome, _ clears: Bool) {
    var state = UIState.initial(UIHarness.registered(), context: Self.context)
    _ = state.reduce(.outcome(outcome), context: Self.context)
    let line = state.status
    #expect(line != nil)
    _ = state.reduce(.store(UIHarness.registered(uids: [UIHarness.uid1])), context: Self.context)
    #expect(state.status == (clears ? nil : line))
  }
}
