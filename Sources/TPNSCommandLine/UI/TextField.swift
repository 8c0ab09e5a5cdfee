import Terminal

/// An editable line of text with a cursor: what a text field of the
/// quickstart's screen does with a key.
struct TextField: Sendable, Equatable {
  /// The text, as typed.
  var text = ""
  /// Where the next character goes, in characters from the start.
  var cursor = 0

  /// Applies an editing key (a character, Backspace, Delete, the arrows
  /// left and right, Home, End, Ctrl-A, Ctrl-E, Ctrl-U, Ctrl-K); returns
  /// whether the key was one, nil for any other key.
  mutating func apply(_ key: Key) -> Bool? {
    var characters = Array(text)
    switch key {
    case .character(let character):
      characters.insert(character, at: cursor)
      cursor += 1
    case .backspace:
      guard cursor > 0 else { return true }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete:
      guard cursor < characters.count else { return true }
      characters.remove(at: cursor)
    case .left: cursor = max(cursor - 1, 0)
    case .right: cursor = min(cursor + 1, characters.count)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .control("u"):
      characters.removeFirst(cursor)
      cursor = 0
    case .control("k"): characters.removeLast(characters.count - cursor)
    default: return nil
    }
    text = String(characters)
    return true
  }

  /// Empties the field.
  mutating func clear() {
    text = ""
    cursor = 0
  }
}
