import Terminal
import Testing

@Suite struct KeyDecoderTests {
  @Test(
    "bytes a terminal sends decode to keys",
    arguments: [
      ("a", [Key.character("a")]),
      ("\r", [.enter]),
      ("\n", [.enter]),
      ("\t", [.tab]),
      ("\u{1b}[Z", [.backTab]),
      ("\u{7f}", [.backspace]),
      ("\u{08}", [.backspace]),
      ("\u{1b}[3~", [.delete]),
      ("\u{1b}[A\u{1b}[B\u{1b}[C\u{1b}[D", [.up, .down, .right, .left]),
      ("\u{1b}OA\u{1b}OB", [.up, .down]),
      ("\u{1b}[H\u{1b}[F\u{1b}[1~\u{1b}[4~", [.home, .end, .home, .end]),
      ("\u{1b}[5~\u{1b}[6~", [.pageUp, .pageDown]),
      ("\u{1b}", [.escape]),
      ("\u{1b}\u{1b}[B", [.escape, .down]),
      ("\u{1b}\u{1b}[4~", [.escape, .end]),
      ("\u{1b}\u{1b}", [.escape, .escape]),
      ("\u{03}", [.control("c")]),
      ("é", [.character("é")]),
      ("ab\u{1b}[1;5Cc", [.character("a"), .character("b"), .right, .character("c")]),
      ("\u{1b}[99~x", [.character("x")]),
    ] as [(String, [Key])])
  func decodes(_ input: String, _ keys: [Key]) {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array(input.utf8)) == keys)
  }

  @Test("a sequence or a character split across reads is completed by the next")
  func split() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B, UInt8(ascii: "[")]) == [])
    #expect(decoder.decode([UInt8(ascii: "3"), UInt8(ascii: "~")]) == [.delete])
    let bytes = Array("é".utf8)
    #expect(decoder.decode([bytes[0]]) == [])
    #expect(decoder.decode([bytes[1]]) == [.character("é")])
  }
}
