import TPNSKit
import Terminal
import Testing

@testable import TPNSCommandLine

/// The renderer alone: a state and a size in, the rows out.
@Suite struct UIRendererTests {
  static let renderer = UIRenderer(server: UIHarness.server, palette: .plain)

  /// A row without its SGR sequences: what a person sees.
  static func visible(_ line: String) -> String {
    line.replacing(/\u{1b}\[[0-9;?]*[A-Za-z]/, with: "")
  }

  static func listed(_ count: Int) -> UIState {
    var state = UIState.initial(
      UIHarness.registered(uids: (0..<count).map { String(format: "UID%017d", $0) }),
      context: UIHarness.context)
    state.focus = .list
    return state
  }

  @Test("at 80x24: 24 rows, none wider than 80 columns", arguments: [0, 3, 40])
  func fits(_ count: Int) {
    let frame = Self.renderer.frame(Self.listed(count), columns: 80, rows: 24)
    #expect(frame.lines.count == 24)
    #expect(frame.lines.allSatisfy { Self.visible($0).count <= 80 })
    #expect(Self.visible(frame.lines[0]) == " tpns ui  \(UIHarness.server)")
    #expect(Self.visible(frame.lines[1]) == " token …a1a1a1  registered at this server")
    #expect(Self.visible(frame.lines[23]).hasPrefix(" Up/Down select  Del remove  s sync"))
  }

  @Test("the rows of the list: index, UID, and the selection marked")
  func rows() {
    let frame = Self.renderer.frame(Self.listed(3), columns: 80, rows: 24)
    #expect(Self.visible(frame.lines[6]).hasPrefix("── 3 UIDs ──"))
    #expect(Self.visible(frame.lines[7]) == " >   0  UID00000000000000000")
    #expect(Self.visible(frame.lines[8]) == "     1  UID00000000000000001")
  }

  @Test("a UID the server refused as not activated is marked so, as status says, not pending")
  func notActivatedRow() {
    var store = UIHarness.registered(uids: [UIHarness.uid1, UIHarness.uid2])
    store.servers[UIHarness.server]?.uids = [UIHarness.uid1]
    store.servers[UIHarness.server]?.notActivated = [UIHarness.uid2]
    let state = UIState.initial(store, context: UIHarness.context)
    let rows = Self.renderer.frame(state, columns: 80, rows: 24).lines.map(Self.visible)
    #expect(rows[6].hasPrefix("── 2 UIDs, 1 not activated ──"))
    #expect(rows[7] == " >   0  \(UIHarness.uid1)")
    #expect(rows[8] == "     1  \(UIHarness.uid2)  not activated")
  }

  @Test("a long list scrolls to keep the selection in view")
  func scrolls() {
    var state = Self.listed(40)
    state.selection = 30
    let rows = Self.renderer.frame(state, columns: 80, rows: 24).lines.map(Self.visible)
    #expect(rows[7...20].contains(" >  30  UID00000000000000030"))
    #expect(!rows.contains("     0  UID00000000000000000"))
  }

  @Test("the cursor stands in the field in focus; in the list it is hidden")
  func cursor() {
    var state = Self.listed(0)
    #expect(Self.renderer.frame(state, columns: 80, rows: 24).cursor == nil)
    state.focus = .uid
    state.uidField = TextField(text: "ABC", cursor: 3)
    let cursor = Self.renderer.frame(state, columns: 80, rows: 24).cursor
    #expect(cursor?.row == 4 && cursor?.column == 11)
  }

  @Test("a server's words cannot move the cursor: control characters are escaped")
  func escapes() {
    var state = Self.listed(0)
    state.status = UIState.Status(text: "failed: \u{1b}]0;pwned\u{7}", style: .failure)
    let line = Self.renderer.frame(state, columns: 80, rows: 24).lines[22]
    #expect(!line.contains("\u{1b}]0"))
  }

  @Test("too small a screen says so instead of drawing")
  func tooSmall() {
    let frame = Self.renderer.frame(Self.listed(3), columns: 39, rows: 24)
    #expect(frame.lines == ["tpns ui needs 40x12 (Ctrl-C quits)"])
  }

  @Test(
    "a status line longer than the screen wraps at spaces onto rows taken from the list",
    arguments: [(80, 24), (40, 12), (120, 30)])
  func statusWraps(_ columns: Int, _ rows: Int) {
    var state = Self.listed(3)
    let words = (0..<30).map { "word\($0)" }
    state.status = UIState.Status(text: "failed: " + words.joined(separator: " "), style: .failure)
    let lines = Self.renderer.frame(state, columns: columns, rows: rows).lines.map(Self.visible)
    #expect(lines.count == rows)
    #expect(lines.allSatisfy { $0.count <= columns })
    // The list keeps at least one row, and the keys line is the last.
    #expect(lines[7] == " >   0  UID00000000000000000")
    #expect(lines[rows - 1].hasPrefix(" Up/Down select"))
    let ruleRow = lines.lastIndex { $0.hasPrefix("────") }!
    let status = lines[(ruleRow + 1)..<(rows - 1)]
    #expect(status.count > 1 && status.allSatisfy { $0.hasPrefix(" ") })
    let shown = status.map { $0.dropFirst() }.joined(separator: " ")
    let text = "failed: " + words.joined(separator: " ")
    if columns >= 80 {
      #expect(shown == text)
    } else {
      // Cut after as many rows as the screen spares (two at 40x12): the end says so.
      #expect(status.count == 2 && shown.hasSuffix("…"))
      #expect(text.hasPrefix(String(shown.dropLast())))
    }
  }

  @Test("a word longer than a row is broken where it must be", arguments: [1, 2, 5])
  func wrapsLongWord(_ rows: Int) {
    let wrapped = UIRenderer.wrap("ab " + String(repeating: "x", count: 25), 10, rows: rows)
    let all = ["ab", "xxxxxxxxxx", "xxxxxxxxxx", "xxxxx"]
    #expect(wrapped.count == min(rows, 4))
    if rows >= 4 {
      #expect(wrapped == all)
    } else {
      #expect(Array(wrapped.dropLast()) == Array(all.prefix(rows - 1)))
      #expect(wrapped.last!.hasSuffix("…") && wrapped.last!.count <= 10)
    }
  }
}
