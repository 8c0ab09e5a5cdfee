/// Standard base64 (RFC 4648 §4, padded), with errors that say what is wrong.
///
/// Foundation's decoder only answers nil; a server must tell a client which byte it
/// did not accept.
enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The padded encoding of `bytes`.
  static func encode(_ bytes: some Collection<UInt8>) -> String {
    let input = Array(bytes)
    var output = [UInt8](repeating: UInt8(ascii: "="), count: (input.count + 2) / 3 * 4)
    alphabet.withUnsafeBufferPointer { alphabet in
      input.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { output in
          var index = 0
          var written = 0
          while index < input.count {
            let remaining = input.count - index
            let second = remaining > 1 ? input[index + 1] : 0
            let third = remaining > 2 ? input[index + 2] : 0
            let group = UInt32(input[index]) << 16 | UInt32(second) << 8 | UInt32(third)
            output[written] = alphabet[Int(group >> 18 & 0x3F)]
            output[written + 1] = alphabet[Int(group >> 12 & 0x3F)]
            // The '=' already there pads a last group of one or two bytes.
            if remaining > 1 { output[written + 2] = alphabet[Int(group >> 6 & 0x3F)] }
            if remaining > 2 { output[written + 3] = alphabet[Int(group & 0x3F)] }
            index += 3
            written += 4
          }
        }
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The padded encoding of `input` appended to `output` percent-encoded
  /// for a form (`+`, `/` and `=` as `%2B`, `%2F` and `%3D`, as
  /// ``PercentEncoding`` writes them), in one pass: each 6-bit value's text
  /// (1 or 3 bytes) looked up and stored as one word.
  static func appendFormEncoded(_ input: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    let groups = (input.count + 2) / 3
    // Worst case 3 bytes a character, and 3 bytes of slack for the last word stored.
    let encoded = formTexts.withUnsafeBufferPointer { texts in
      [UInt8](unsafeUninitializedCapacity: groups * 12 + 3) { buffer, count in
        let start = UnsafeMutableRawPointer(buffer.baseAddress!)
        var at = start
        // Stores the text of each 6-bit value: its bytes in the low three
        // of a word, its length in the top one.
        func put(_ value: UInt32) {
          let text = texts[Int(value)]
          at.storeBytes(of: UInt32(littleEndian: text), as: UInt32.self)
          at += Int(text >> 24)
        }
        var index = 0
        while index + 3 <= input.count {
          let group =
            UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            | UInt32(input[index + 2])
          put(group >> 18)
          put(group >> 12 & 0x3F)
          put(group >> 6 & 0x3F)
          put(group & 0x3F)
          index += 3
        }
        let remaining = input.count - index
        if remaining > 0 {
          let second = remaining > 1 ? UInt32(input[index + 1]) : 0
          let group = UInt32(input[index]) << 16 | second << 8
          put(group >> 18)
          put(group >> 12 & 0x3F)
          if remaining > 1 { put(group >> 6 & 0x3F) } else { put(64) }
          put(64)
        }
        count = at - start
      }
    }
    output += encoded
  }

  /// The form-encoded text of each 6-bit value, and at 64 that of `=`: up to
  /// three bytes, little-endian, and the count in the top byte.
  private static let formTexts: [UInt32] = (0...64).map { value in
    let character = value == 64 ? UInt8(ascii: "=") : alphabet[value]
    let text: [UInt8]
    switch character {
    case UInt8(ascii: "+"): text = Array("%2B".utf8)
    case UInt8(ascii: "/"): text = Array("%2F".utf8)
    case UInt8(ascii: "="): text = Array("%3D".utf8)
    default: text = [character]
    }
    var word = UInt32(text.count) << 24
    for (index, byte) in text.enumerated() { word |= UInt32(byte) << (8 * index) }
    return word
  }

  /// The bytes the base64 text `input` (its UTF-8) encodes; throws a reason for anything
  /// but padded standard base64.
  static func decode(_ input: [UInt8]) throws(MapPayloadError) -> [UInt8] {
    guard input.count % 4 == 0 else {
      throw .base64("its length \(input.count) is not a multiple of 4")
    }
    // Groups of four alphabet characters through a table, three bytes
    // stored at once (the checking loop below, a byte at a time with an
    // append each, was 30 instructions a byte of a 10,000-UID map); it
    // takes over at the first group with padding or a character not base64.
    var index = 0
    var output = sextets.withUnsafeBufferPointer { sextets in
      input.withUnsafeBufferPointer { input in
        [UInt8](unsafeUninitializedCapacity: input.count / 4 * 3) { output, count in
          var written = 0
          while index < input.count {
            let a = UInt32(sextets[Int(input[index])])
            let b = UInt32(sextets[Int(input[index + 1])])
            let c = UInt32(sextets[Int(input[index + 2])])
            let d = UInt32(sextets[Int(input[index + 3])])
            // An entry of 0xFF (not base64, or '=') in any of the four.
            guard (a | b | c | d) < 64 else { break }
            let group = a << 18 | b << 12 | c << 6 | d
            output[written] = UInt8(truncatingIfNeeded: group >> 16)
            output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
            output[written + 2] = UInt8(truncatingIfNeeded: group)
            written += 3
            index += 4
          }
          count = written
        }
      }
    }
    while index < input.count {
      var group: UInt32 = 0
      var padding = 0
      for offset in 0..<4 {
        let byte = input[index + offset]
        let value: UInt32
        if byte == UInt8(ascii: "=") {
          // Padding only in the last two places of the last group.
          guard index + 4 == input.count, offset >= 2 else {
            throw .base64("'=' at offset \(index + offset) is not at the end")
          }
          padding += 1
          value = 0
        } else {
          guard padding == 0, let decoded = sextet(byte) else {
            throw .base64("\(shown(byte)) at offset \(index + offset) is not a base64 character")
          }
          value = decoded
        }
        group = group << 6 | value
      }
      output.append(UInt8(group >> 16 & 0xFF))
      if padding < 2 { output.append(UInt8(group >> 8 & 0xFF)) }
      if padding < 1 { output.append(UInt8(group & 0xFF)) }
      index += 4
    }
    return output
  }

  /// Each byte's value in the alphabet, 0xFF for a byte not in it (`=` included).
  private static let sextets: [UInt8] = (0...255).map { byte in
    sextet(UInt8(byte)).map { UInt8($0) } ?? 0xFF
  }

  private static func sextet(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(byte - UInt8(ascii: "A"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(byte - UInt8(ascii: "a") + 26)
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0") + 52)
    case UInt8(ascii: "+"): return 62
    case UInt8(ascii: "/"): return 63
    default: return nil
    }
  }

  private static func shown(_ byte: UInt8) -> String {
    byte >= 0x20 && byte < 0x7F
      ? "'\(Character(Unicode.Scalar(byte)))'"
      : "byte 0x\(String(byte, radix: 16, uppercase: true))"
  }
}
