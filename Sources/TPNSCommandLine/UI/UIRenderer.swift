import TPNSKit
import TPNSProtocol
import Terminal

/// Draws a ``UIState`` as a ``Frame``: a pure function of state and size,
/// tested without a terminal; the terminal is sent only the rows that changed.
///
///      tpns ui  http://127.0.0.1:7380/tpns
///      token …c0ffee  registered at this server
///      Token [                                                               ]
///            type the phone's token (64 hex characters): Enter registers it
///      UID   [ABCDEFGHJKLMN       ]   Add
///            a UID must be 20 characters, got 13: 7 missing
///     ── 3 UIDs, 1 pending, 1 not activated ──────────────────────────────────
///      >  0  ABCDEFGHJKLMNPRSTUVW
///         1  BBCDEFGHJKLMNPRSTUVW  pending
///         2  CBCDEFGHJKLMNPRSTUVW  not activated
struct UIRenderer: Sendable {
  static let minimumSize = (columns: 40, rows: 12)
  let server: String
  let palette: Palette

  func frame(_ state: UIState, columns: Int, rows: Int) -> Frame {
    guard columns >= Self.minimumSize.columns, rows >= Self.minimumSize.rows else {
      let message =
        "tpns ui needs \(Self.minimumSize.columns)x\(Self.minimumSize.rows) (Ctrl-C quits)"
      return Frame(lines: [Self.fit(message, columns)])
    }
    var lines: [String] = []
    lines.append(ANSI.bold + Self.fit(" tpns ui  \(shown(server))", columns) + ANSI.resetAttributes)
    let waits = state.registering != nil || (state.token != nil && !state.isRegistered)
    lines.append(Self.fit(" " + header(state), columns, painted: waits ? .pending : nil, palette))
    let label = { (name: String, focus: UIState.Focus) -> String in
      state.focus == focus ? ANSI.reverse + name + ANSI.resetAttributes : name
    }
    // Token row: " Token [" field "]"; the field scrolls to keep the cursor
    // in view, and shows a bullet for each character unless revealed.
    let tokenWidth = columns - 9
    let (tokenText, tokenCursor) = Self.window(state.shownTokenField, width: tokenWidth)
    lines.append(" " + label("Token", .token) + " [" + Self.pad(tokenText, tokenWidth) + "]")
    lines.append(tokenNote(state, columns))
    let uidWidth = 20
    let (uidText, uidCursor) = Self.window(state.uidField, width: uidWidth)
    let add =
      state.addEnabled
      ? ANSI.bold + "[ Add ]" + ANSI.resetAttributes : ANSI.dim + "  Add  " + ANSI.resetAttributes
    lines.append(" " + label("UID", .uid) + "   [" + Self.pad(uidText, uidWidth) + "]  " + add)
    let hint = state.uidHint
    lines.append(note(hint.text, columns, painted: hint.isValid ? .success : nil))
    lines.append(Self.rule(listTitle(state), columns))
    // A long status line wraps onto more rows, taken from the list (which keeps one).
    let status = state.status ?? UIState.Status(text: "", style: nil)
    let statusRows = Self.wrap(
      shown(status.text), columns - 1, rows: max(min(4, rows - lines.count - 3), 1)
    ).map { " " + $0 }
    let listRows = rows - lines.count - 2 - statusRows.count
    let top = Self.top(selection: state.selection, count: state.list.count, rows: listRows)
    for row in 0..<listRows {
      let index = top + row
      guard index < state.list.count else {
        lines.append(
          index == 0 && row == 0 ? Self.fit("    the list is empty: type a UID above", columns) : ""
        )
        continue
      }
      lines.append(listLine(state, index: index, columns: columns))
    }
    lines.append(Self.rule("", columns))
    lines += statusRows.map { palette.paint($0, status.style) }
    lines.append(ANSI.dim + Self.fit(" " + Self.keys(state), columns) + ANSI.resetAttributes)
    let cursor: (row: Int, column: Int)? =
      switch state.focus {
      case .token: (2, 8 + tokenCursor)
      case .uid: (4, 8 + uidCursor)
      case .list: nil
      }
    return Frame(lines: lines, cursor: cursor)
  }

  static func keys(_ state: UIState) -> String {
    switch state.focus {
    case .token:
      "Enter register  Ctrl-R \(state.revealsToken ? "hide" : "show") token  Tab next field  "
        + "Esc list  Ctrl-C quit"
    case .uid: "Enter add  Tab next field  Esc list  Ctrl-C quit"
    case .list: "Up/Down select  Del remove  s sync  Tab next field  q quit"
    }
  }

  /// The line under the token field: why its token is not registered, or its check.
  private func tokenNote(_ state: UIState, _ columns: Int) -> String {
    if let reason = state.tokenReason {
      return note(reason, columns, painted: .failure)
    }
    if state.tokenField.text.isEmpty, state.token != nil {
      return note(
        "to replace the token, type the new one (\(IOSTokenSyntax.length) hex characters)",
        columns)
    }
    let hint = TokenHint(state.tokenField.text)
    return note(hint.text, columns, painted: hint.isValid ? .success : nil)
  }

  /// A line under a field, in line with its text if it fits.
  private func note(_ text: String, _ columns: Int, painted style: Palette.Style? = nil)
    -> String
  {
    let text = shown(text)
    let indent = text.count <= columns - 7 ? "       " : " "
    return indent + Self.fit(text, columns - indent.count, painted: style, palette)
  }

  private func header(_ state: UIState) -> String {
    guard let token = state.token else {
      return state.registering.map { "registering \($0)" } ?? "no token: type one and press Enter"
    }
    var text = "token \(token)  \(state.isRegistered ? "" : "not ")registered at this server"
    if let registering = state.registering { text += "  (registering \(registering))" }
    return text
  }

  private func listTitle(_ state: UIState) -> String {
    let count = state.list.count
    var title = "\(count) UID\(count == 1 ? "" : "s")"
    let pending = state.list.filter(state.pending.contains).count
    if pending > 0 { title += ", \(pending) pending" }
    if !state.notActivated.isEmpty { title += ", \(state.notActivated.count) not activated" }
    if !state.pendingRemovals.isEmpty {
      title +=
        ", \(state.pendingRemovals.count) removal\(state.pendingRemovals.count == 1 ? "" : "s") pending"
    }
    return title
  }

  private func listLine(_ state: UIState, index: Int, columns: Int) -> String {
    let uid = state.list[index]
    let selected = index == state.selection
    let number = String(index)
    let text =
      " \(selected ? ">" : " ") " + String(repeating: " ", count: max(3 - number.count, 0))
      + number + "  " + shown(uid)
    var line = Self.fit(text, columns)
    if state.pending.contains(uid) { line += palette.paint("  pending", .pending) }
    if state.notActivated.contains(uid) { line += palette.paint("  not activated", .failure) }
    return selected && state.focus == .list ? ANSI.reverse + line + ANSI.resetAttributes : line
  }

  /// A server's words never move the cursor.
  private func shown(_ text: String) -> String {
    text.escapingControlCharacters
  }

  /// The first row of the list that keeps `selection` in view.
  static func top(selection: Int, count: Int, rows: Int) -> Int {
    guard rows > 0, count > rows else { return 0 }
    return min(max(selection - rows + 1, 0), count - rows)
  }

  /// The part of `field` that fits in `width`, and the cursor's column in it.
  static func window(_ field: TextField, width: Int) -> (String, Int) {
    let characters = Array(field.text)
    let start = max(field.cursor - width, 0)
    let end = min(start + width, characters.count)
    return (String(characters[min(start, end)..<end]), field.cursor - start)
  }

  /// `text` cut to `width` characters (the last one `…` when cut), in `style`.
  static func fit(
    _ text: String, _ width: Int, painted style: Palette.Style? = nil, _ palette: Palette = .plain
  ) -> String {
    let cut = text.count <= width ? text : String(text.prefix(max(width - 1, 0))) + "…"
    return palette.paint(cut, style)
  }

  /// `text` in at most `rows` rows of `width`, broken at spaces (a longer
  /// word where it must be), the last ending in `…` when text is left over.
  static func wrap(_ text: String, _ width: Int, rows: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for part in text.split(separator: " ") {
      var word = part
      if !line.isEmpty, line.count + 1 + word.count <= width {
        line += " " + word
        continue
      }
      if !line.isEmpty { lines.append(line) }
      while word.count > width {
        lines.append(String(word.prefix(width)))
        word = word.dropFirst(width)
      }
      line = String(word)
    }
    lines.append(line)
    guard lines.count > rows else { return lines }
    var kept = Array(lines.prefix(rows))
    let last = kept[rows - 1]
    kept[rows - 1] = last.count < width ? last + "…" : String(last.prefix(width - 1)) + "…"
    return kept
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(width - text.count, 0))
  }

  static func rule(_ title: String, _ width: Int) -> String {
    let head = title.isEmpty ? "" : "── \(title) "
    let fitted = String(head.prefix(width))
    return fitted + String(repeating: "─", count: max(width - fitted.count, 0))
  }
}
