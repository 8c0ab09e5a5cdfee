/// The ANSI (ECMA-48) and xterm control sequences a full-screen program uses.
public enum ANSI {
  /// The alternate screen on (saving the cursor) and off (restoring it).
  public static let enterAlternateScreen = "\u{1b}[?1049h"
  public static let leaveAlternateScreen = "\u{1b}[?1049l"
  /// The cursor hidden and shown.
  public static let hideCursor = "\u{1b}[?25l"
  public static let showCursor = "\u{1b}[?25h"
  /// The whole screen erased, cursor home; the rest of the line erased.
  public static let clearScreen = "\u{1b}[H\u{1b}[2J"
  public static let clearToEndOfLine = "\u{1b}[K"
  /// Every attribute off.
  public static let resetAttributes = "\u{1b}[0m"

  /// Bold, dim, reverse video: attributes, not colours (`NO_COLOR` leaves them).
  public static let bold = "\u{1b}[1m"
  public static let dim = "\u{1b}[2m"
  public static let reverse = "\u{1b}[7m"

  /// The cursor to `row` and `column`, both 0-based.
  public static func moveTo(row: Int, column: Int) -> String {
    "\u{1b}[\(row + 1);\(column + 1)H"
  }
}
