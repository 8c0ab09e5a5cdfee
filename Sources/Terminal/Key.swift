/// A key a person pressed, as a terminal in raw mode sends it (a character
/// UTF-8 decoded; Backspace is DEL or Ctrl-H, Delete `ESC [ 3 ~`).
public enum Key: Sendable, Hashable {
  case character(Character)
  case enter, tab, backTab, backspace, delete
  case up, down, left, right, home, end, pageUp, pageDown, escape
  /// Ctrl and a letter other than those above (`control("c")` is Ctrl-C:
  /// raw mode turns off the signal keys, so it arrives as a key).
  case control(Character)
}
