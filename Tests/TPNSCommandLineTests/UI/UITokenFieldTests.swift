import TPNSKit
import TPNSProtocol
import Terminal
import Testing

@testable import TPNSCommandLine

/// The token field of `tpns ui`: checked as you type, masked unless
/// revealed, and a refused token kept in it with the reason.
@Suite struct UITokenFieldTests {
  static let context = UIHarness.context
  static let renderer = UIRenderer(server: UIHarness.server, palette: .plain)
  static let tokenA = try! PushToken(UIHarness.tokenA, os: .ios)
  static let refusal = RequestFailure.status(400, body: "bad token", retryAfter: nil)

  static func typed(_ text: String, from start: UIState = UIState()) -> UIState {
    var state = start
    for character in text { _ = state.reduce(.key(.character(character)), context: context) }
    return state
  }

  static func visible(_ line: String) -> String { UIRendererTests.visible(line) }

  @Test(
    "the reason under the token field, as you type, in the CLI's words",
    arguments: [
      ("", "type the phone's token (64 hex characters): Enter registers it", false),
      ("a1b2c", "An iOS token must be 64 hex characters, got 5: 59 missing", false),
      (
        String(repeating: "a1", count: 32) + "f",
        "An iOS token must be 64 hex characters, got 65: 1 too many",
        false
      ),
      (
        "a1g2", "character 'g' at position 3 is not allowed in an iOS token (only hex digits)",
        false
      ),
      (
        " " + String(repeating: "A1", count: 32) + " ", "a valid iOS token: Enter registers it",
        true
      ),
    ])
  func hint(_ typed: String, _ text: String, _ isValid: Bool) {
    let hint = TokenHint(typed)
    #expect(hint.text == text)
    #expect(hint.isValid == isValid)
    let frame = Self.renderer.frame(Self.typed(typed), columns: 80, rows: 24)
    // In line with the field, or from the edge when it would not fit there.
    let indent = text.count <= 73 ? "       " : " "
    #expect(Self.visible(frame.lines[3]) == indent + text)
  }

  @Test("Enter on a token that is not one sends nothing, keeps it, and says why")
  func enterInvalid() {
    var state = Self.typed("a1b2c")
    #expect(state.reduce(.key(.enter), context: Self.context) == [])
    #expect(state.tokenField.text == "a1b2c" && state.focus == .token)
    #expect(state.status?.text == "An iOS token must be 64 hex characters, got 5: 59 missing")
    #expect(state.registering == nil)
  }

  @Test(
    "a token the server refuses stays in the field with the reason; the same again is not sent"
  )
  func refusedKept() {
    var state = Self.typed(UIHarness.tokenA)
    #expect(state.reduce(.key(.enter), context: Self.context) == [.token(UIHarness.tokenA)])
    _ = state.reduce(
      .outcome(.failed(.registrationRejected(Self.tokenA, kept: nil, Self.refusal))),
      context: Self.context)
    #expect(state.tokenField.text == UIHarness.tokenA)
    #expect(state.registering == nil)
    let reason =
      "failed: the server rejected the token …a1a1a1: the server answered 400: bad token; "
      + "it stays stored, not acknowledged"
    #expect(state.tokenReason == reason)
    #expect(state.status?.text == reason)
    let frame = Self.renderer.frame(state, columns: 200, rows: 24)
    #expect(Self.visible(frame.lines[3]) == "       " + reason)
    // Too long to fit in line with the field at 80 columns: from the edge, cut.
    let narrow = Self.visible(Self.renderer.frame(state, columns: 80, rows: 24).lines[3])
    #expect(
      narrow.count == 80 && narrow.hasPrefix(" failed: the server rejected")
        && narrow.hasSuffix("…"))
    // Entered again, it would be refused again: said so, nothing sent.
    state.focus = .token
    #expect(state.reduce(.key(.enter), context: Self.context) == [])
    #expect(state.status?.text == reason + ": type another token")
    // Edited, the field's own check is back.
    _ = state.reduce(.key(.backspace), context: Self.context)
    #expect(state.tokenReason == nil)
    #expect(
      Self.visible(Self.renderer.frame(state, columns: 80, rows: 24).lines[3])
        == "       An iOS token must be 64 hex characters, got 63: 1 missing")
  }

  @Test(
    "a token whose request failed stays in the field; Enter again sends the list, registering first"
  )
  func failedRetried() {
    var state = Self.typed(UIHarness.tokenA)
    _ = state.reduce(.key(.enter), context: Self.context)
    _ = state.reduce(
      .outcome(.failed(.request(.client, UIHarness.busy))), context: Self.context)
    #expect(state.tokenField.text == UIHarness.tokenA && state.tokenReason != nil)
    state.focus = .token
    #expect(state.reduce(.key(.enter), context: Self.context) == [.sync])
    #expect(state.registering == "…a1a1a1" && state.tokenReason == nil)
  }

  @Test("registered, the token leaves the field; a field edited since keeps its text")
  func registeredClears() {
    var state = Self.typed(UIHarness.tokenA)
    _ = state.reduce(.key(.enter), context: Self.context)
    var edited = state
    _ = state.reduce(.outcome(.registered(Self.tokenA, response: "ok")), context: Self.context)
    #expect(state.tokenField.text == "" && state.registering == nil)
    edited.focus = .token
    _ = edited.reduce(.key(.backspace), context: Self.context)
    _ = edited.reduce(.outcome(.registered(Self.tokenA, response: "ok")), context: Self.context)
    #expect(edited.tokenField.text == String(UIHarness.tokenA.dropLast()))
  }

  @Test("the token field shows a bullet for each character; Ctrl-R reveals it and hides it again")
  func masked() {
    var state = Self.typed(UIHarness.tokenA)
    let row = { (state: UIState) in
      Self.visible(Self.renderer.frame(state, columns: 80, rows: 24).lines[2])
    }
    let bullets = String(repeating: "•", count: 64)
    #expect(row(state) == " Token [" + UIRenderer.pad(bullets, 71) + "]")
    #expect(!row(state).contains("a1a1"))
    let keys = { (state: UIState) in
      Self.visible(Self.renderer.frame(state, columns: 80, rows: 24).lines[23])
    }
    #expect(keys(state).contains("Ctrl-R show token"))
    _ = state.reduce(.key(.control("r")), context: Self.context)
    #expect(row(state) == " Token [" + UIRenderer.pad(UIHarness.tokenA, 71) + "]")
    #expect(keys(state).contains("Ctrl-R hide token"))
    // The cursor stands where it would in the text.
    #expect(Self.renderer.frame(state, columns: 80, rows: 24).cursor?.column == 8 + 64)
    _ = state.reduce(.key(.control("r")), context: Self.context)
    #expect(row(state).contains(bullets))
  }

  @Test("--show-token starts with the token field revealed")
  func showTokenReveals() {
    let state = UIState.initial(StoreContents(), context: Self.context, revealsToken: true)
    #expect(state.revealsToken)
    #expect(!UIState.initial(StoreContents(), context: Self.context).revealsToken)
  }
}
