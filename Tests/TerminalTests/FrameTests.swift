import Terminal
import Testing

@Suite struct FrameTests {
  @Test("the first frame clears the screen and writes every row")
  func first() {
    let frame = Frame(lines: ["a", "b"])
    #expect(
      frame.update(from: nil)
        == "\u{1b}[?25l\u{1b}[H\u{1b}[2J\u{1b}[1;1Ha\u{1b}[0m\u{1b}[K\u{1b}[2;1Hb\u{1b}[0m\u{1b}[K")
  }

  @Test("a later frame writes only the rows that changed, and places the cursor")
  func diff() {
    let old = Frame(lines: ["header", "uid ABC", "status"])
    let new = Frame(lines: ["header", "uid ABCD", "status"], cursor: (1, 8))
    #expect(
      new.update(from: old)
        == "\u{1b}[?25l\u{1b}[2;1Huid ABCD\u{1b}[0m\u{1b}[K\u{1b}[2;9H\u{1b}[?25h")
  }

  @Test("rows the new frame no longer has are cleared")
  func shorter() {
    let old = Frame(lines: ["a", "b"])
    #expect(Frame(lines: ["a"]).update(from: old) == "\u{1b}[?25l\u{1b}[2;1H\u{1b}[0m\u{1b}[K")
  }

  @Test("an equal frame writes nothing but the cursor's state")
  func same() {
    let frame = Frame(lines: ["a"])
    #expect(frame.update(from: frame) == "\u{1b}[?25l")
  }
}
