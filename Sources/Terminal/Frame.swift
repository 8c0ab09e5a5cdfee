/// What one screen shows: a line per row (text with SGR attributes, at
/// most as wide as the screen) and where the cursor stands, if shown.
public struct Frame: Sendable, Equatable {
  /// The rows, top first; missing rows are blank.
  public var lines: [String]
  /// The cursor's row and column (0-based), or nil to hide it.
  public var cursor: (row: Int, column: Int)?

  /// A frame of `lines`, with the cursor at `cursor` or hidden.
  public init(lines: [String], cursor: (row: Int, column: Int)? = nil) {
    self.lines = lines
    self.cursor = cursor
  }

  public static func == (left: Frame, right: Frame) -> Bool {
    left.lines == right.lines && left.cursor?.row == right.cursor?.row
      && left.cursor?.column == right.cursor?.column
  }

  /// The bytes that turn a screen showing `previous` into this frame: only
  /// the rows that differ, each cleared to its end; with no previous frame
  /// (the start, a resize), the screen is cleared and every row written.
  ///
  ///     new.update(from: old)  // "\u{1b}[?25l\u{1b}[5;1Hsynced 3 UIDs\u{1b}[K…"
  public func update(from previous: Frame?) -> String {
    var output = ANSI.hideCursor
    if previous == nil { output += ANSI.clearScreen }
    let old = previous?.lines ?? []
    let rows = max(lines.count, old.count)
    for row in 0..<rows {
      let line = row < lines.count ? lines[row] : ""
      let before = row < old.count ? old[row] : (previous == nil ? nil : "")
      guard line != before else { continue }
      output +=
        ANSI.moveTo(row: row, column: 0) + line + ANSI.resetAttributes + ANSI.clearToEndOfLine
    }
    if let cursor {
      output += ANSI.moveTo(row: cursor.row, column: cursor.column) + ANSI.showCursor
    }
    return output
  }
}
