import Terminal

/// An editable line of text with a cursor, in characters from the start.
struct TextField: Sendable, Equatable {
  var text = ""
  var cursor = 0

  /// Applies an editing key (a character, Backspace, Delete, Left, Right,
  /// Home, End, Ctrl-A, Ctrl-E, Ctrl-U, Ctrl-K); ignores any other.
  mutating func apply(_ key: Key) {
    var characters = Array(text)
    switch key {
    case .character(let character):
      characters.insert(character, at: cursor)
      cursor += 1
    case .backspace:
      guard cursor > 0 else { return }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete:
      guard cursor < characters.count else { return }
      characters.remove(at: cursor)
    case .left: cursor = max(cursor - 1, 0)
    case .right: cursor = min(cursor + 1, characters.count)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .control("u"):
      characters.removeFirst(cursor)
      cursor = 0
    case .control("k"): characters.removeLast(characters.count - cursor)
    default: return
    }
    text = String(characters)
  }

  mutating func clear() {
    text = ""
    cursor = 0
  }
}
