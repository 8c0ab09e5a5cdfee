/// Where a server's text echoes a secret (a token or phone ID the command
/// holds): each run of ``partLength`` or more characters that is a stretch of
/// one (case, percent-escapes, white space and control characters aside)
/// becomes the secret as output shows it (`…` and its last 6).
///
///     TokenEcho.mask(["fcm:APA91bHun4MxP5egoKMwt2KZ"], in: "bad: FCM%3AAPA91BHUN4MXP5")
///     // "bad: …Mwt2KZ"
///
/// Costs a pass over the text per secret.
enum TokenEcho {
  /// The fewest characters of a secret that count as an echo: too many for
  /// an unrelated word (a token is random), few enough that what is left of
  /// a 152-character FCM token outside them registers nothing.
  static let partLength = 12

  /// `text` with every echo of `secrets` (longest first) masked.
  static func mask(_ secrets: [String], in text: String) -> String {
    guard !secrets.isEmpty else { return text }
    let original = Array(text.utf8)
    let folded = Folded(original)
    // The secret whose echo covers each folded character, if any.
    var cover = [Int?](repeating: nil, count: folded.bytes.count)
    for (index, secret) in secrets.enumerated() {
      let needle = Array(secret.utf8).map(Self.lowercased)
      let length = min(partLength, needle.count)
      guard length > 0, folded.bytes.count >= length else { continue }
      let windows = Set((0...(needle.count - length)).map { needle[$0..<($0 + length)] })
      for start in 0...(folded.bytes.count - length)
      where windows.contains(folded.bytes[start..<(start + length)]) {
        for position in start..<(start + length) where cover[position] == nil {
          cover[position] = index
        }
      }
    }
    guard cover.contains(where: { $0 != nil }) else { return text }
    // Each run of covered characters becomes its secret as shown.
    var output: [UInt8] = []
    var copied = 0
    var position = 0
    while position < cover.count {
      guard let secret = cover[position] else {
        position += 1
        continue
      }
      var end = position
      while end + 1 < cover.count, cover[end + 1] == secret { end += 1 }
      output += original[copied..<folded.starts[position]]
      output += Array(TokenMask.shown(secrets[secret]).utf8)
      copied = folded.ends[end]
      position = end + 1
    }
    output += original[copied...]
    return String(decoding: output, as: UTF8.self)
  }

  /// Text as it is compared (ASCII lowercased, `%XX` as its byte, white
  /// space and control characters left out), each byte with its place in the original.
  private struct Folded {
    var bytes: [UInt8] = []
    var starts: [Int] = []
    var ends: [Int] = []

    init(_ original: [UInt8]) {
      var index = 0
      while index < original.count {
        let byte = original[index]
        if byte == UInt8(ascii: "%"), index + 2 < original.count,
          let high = Character(Unicode.Scalar(original[index + 1])).hexDigitValue,
          let low = Character(Unicode.Scalar(original[index + 2])).hexDigitValue
        {
          append(TokenEcho.lowercased(UInt8(high << 4 | low)), from: index, to: index + 3)
          index += 3
          continue
        }
        if byte > 0x20, byte != 0x7F {
          append(TokenEcho.lowercased(byte), from: index, to: index + 1)
        }
        index += 1
      }
    }

    private mutating func append(_ byte: UInt8, from start: Int, to end: Int) {
      bytes.append(byte)
      starts.append(start)
      ends.append(end)
    }
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
  }
}
