/// Turns the bytes a terminal sends into ``Key``s: UTF-8 characters, the
/// control keys, and the escape sequences of xterm and its kin (`CSI` and
/// `SS3` forms, as tmux, xterm and the Linux console send them). A sequence
/// or character split across reads is completed by the next read; an
/// escape at the end of a read is the Escape key. Sequences it does not
/// know are dropped whole.
///
///     var decoder = KeyDecoder()
///     decoder.decode(Array("a\u{1b}[A\r".utf8))  // [.character("a"), .up, .enter]
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  /// A decoder with nothing buffered.
  public init() {}

  /// The keys in `bytes`, after what an earlier read left unfinished.
  public mutating func decode(_ bytes: [UInt8]) -> [Key] {
    let input = pending + bytes
    pending = []
    var keys: [Key] = []
    var index = 0
    while index < input.count {
      let byte = input[index]
      switch byte {
      case 0x1B:
        guard index + 1 < input.count else {
          keys.append(.escape)
          index += 1
          continue
        }
        guard let (key, length) = Self.sequence(input, at: index) else {
          // Unfinished: keep it for the next read.
          pending = Array(input[index...])
          return keys
        }
        if let key { keys.append(key) }
        index += length
      case 0x00...0x1F, 0x7F:
        if let key = Self.control(byte) { keys.append(key) }
        index += 1
      default:
        let length = Self.utf8Length(byte)
        guard length > 0 else {
          index += 1
          continue
        }
        guard index + length <= input.count else {
          pending = Array(input[index...])
          return keys
        }
        let scalarBytes = input[index..<(index + length)]
        if let character = String(validating: scalarBytes, as: UTF8.self)?.first {
          keys.append(.character(character))
        }
        index += length
      }
    }
    return keys
  }

  /// The key a sequence's final byte names (`ESC [ A`, `ESC O A`), and the
  /// key of `ESC [ n ~` by its `n`.
  private static let finalKeys: [Unicode.Scalar: Key] = [
    "A": .up, "B": .down, "C": .right, "D": .left, "H": .home, "F": .end,
  ]
  private static let tildeKeys: [Substring: Key] = [
    "1": .home, "7": .home, "3": .delete, "4": .end, "8": .end, "5": .pageUp, "6": .pageDown,
  ]

  /// The key of the escape sequence at `start` (nil: not one it knows) and
  /// its length, or nil if the sequence is not complete yet.
  private static func sequence(_ input: [UInt8], at start: Int) -> (Key?, Int)? {
    let introducer = input[start + 1]
    if introducer == UInt8(ascii: "O") {
      guard start + 2 < input.count else { return nil }
      let final = Unicode.Scalar(input[start + 2])
      return (final == "M" ? .enter : finalKeys[final], 3)
    }
    // Escape pressed just before another key's sequence (`ESC ESC [ B`, Esc
    // then Down in one read): the Escape key, and the next sequence decoded
    // on its own rather than typed as `[B`.
    if introducer == 0x1B { return (.escape, 1) }
    guard introducer == UInt8(ascii: "[") else {
      // Alt and a key: the key alone.
      return (nil, 2)
    }
    // CSI: parameters and intermediates, then one final byte 0x40–0x7E.
    var index = start + 2
    while index < input.count, !(0x40...0x7E).contains(input[index]) { index += 1 }
    guard index < input.count else { return nil }
    let parameters = String(decoding: input[(start + 2)..<index], as: UTF8.self)
    let key: Key? =
      switch Unicode.Scalar(input[index]) {
      case "Z": .backTab
      case "~": tildeKeys[parameters.split(separator: ";").first ?? ""]
      case let final: finalKeys[final]
      }
    return (key, index - start + 1)
  }

  private static func control(_ byte: UInt8) -> Key? {
    switch byte {
    case 0x0D, 0x0A: .enter
    case 0x09: .tab
    case 0x7F, 0x08: .backspace
    case 0x01...0x1A: .control(Character(Unicode.Scalar(byte + 0x60)))
    default: nil
    }
  }

  /// The length of the UTF-8 sequence `byte` starts, 0 if it starts none.
  private static func utf8Length(_ byte: UInt8) -> Int {
    switch byte {
    case 0x20...0x7E: 1
    case 0xC2...0xDF: 2
    case 0xE0...0xEF: 3
    case 0xF0...0xF4: 4
    default: 0
    }
  }
}
