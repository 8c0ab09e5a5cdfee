/// Standard base64 (RFC 4648 §4, padded), with errors that say what is wrong.
///
/// Foundation's decoder only answers nil; a server must tell a client which byte it
/// did not accept.
package enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The padded encoding of `bytes`.
  package static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    for start in stride(from: 0, to: bytes.count, by: 3) {
      let chunk = bytes[start..<min(start + 3, bytes.count)]
      var group: UInt32 = 0
      for (offset, byte) in chunk.enumerated() { group |= UInt32(byte) << (16 - 8 * offset) }
      // A chunk of n bytes fills n + 1 sextets; '=' pads the rest.
      for sextet in 0..<4 {
        output.append(
          sextet <= chunk.count
            ? alphabet[Int(group >> (18 - 6 * sextet) & 0x3F)] : UInt8(ascii: "="))
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Each byte's 6-bit value, nil for a byte outside the alphabet.
  private static let sextets: [UInt32?] = {
    var table = [UInt32?](repeating: nil, count: 256)
    for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt32(value) }
    return table
  }()

  /// The bytes the base64 text `input` (its UTF-8) encodes; throws a reason for anything
  /// but padded standard base64.
  package static func decode(_ input: [UInt8]) throws(MapPayloadError) -> [UInt8] {
    guard input.count % 4 == 0 else {
      throw .base64("its length \(input.count) is not a multiple of 4")
    }
    var output: [UInt8] = []
    output.reserveCapacity(input.count / 4 * 3)
    var group: UInt32 = 0
    var padding = 0
    for (offset, byte) in input.enumerated() {
      if byte == UInt8(ascii: "=") {
        // Padding only in the last two places.
        guard offset >= input.count - 2 else {
          throw .base64("'=' at offset \(offset) is not at the end")
        }
        padding += 1
        group <<= 6
      } else {
        guard padding == 0, let value = sextets[Int(byte)] else {
          throw .base64("\(JSONParser.shown(byte)) at offset \(offset) is not a base64 character")
        }
        group = group << 6 | value
      }
      if offset % 4 == 3 {
        output.append(UInt8(group >> 16 & 0xFF))
        if padding < 2 { output.append(UInt8(group >> 8 & 0xFF)) }
        if padding < 1 { output.append(UInt8(group & 0xFF)) }
      }
    }
    return output
  }
}
