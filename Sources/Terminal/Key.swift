/// A key a person pressed, as a terminal in raw mode sends it.
public enum Key: Sendable, Hashable {
  /// A printable character (UTF-8 decoded).
  case character(Character)
  /// Return or Enter.
  case enter
  /// Tab, and Shift-Tab.
  case tab, backTab
  /// Backspace (DEL or Ctrl-H), and Delete (`ESC [ 3 ~`).
  case backspace, delete
  /// The arrows.
  case up, down, left, right
  /// Home, End, Page Up, Page Down.
  case home, end, pageUp, pageDown
  /// Escape on its own.
  case escape
  /// Ctrl and a letter other than those above (`control("c")` is Ctrl-C:
  /// raw mode turns off the signal keys, so it arrives as a key).
  case control(Character)
}
