/// Percent-encoding of form values: every byte but the RFC 3986 unreserved
/// characters (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`, so base64's `+ / =` are
/// encoded too. (The same set `curl_easy_escape` keeps, done here so that the
/// wire format needs no curl handle and is tested byte for byte.)
enum PercentEncoding {
  private static let hex = Array("0123456789ABCDEF".utf8)

  /// Whether each byte value is kept as it is (the unreserved characters).
  private static let kept: [Bool] = (0...255).map { value in
    let byte = UInt8(value)
    return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~")]
        .contains(byte)
  }

  /// `text`, percent-encoded.
  static func encode(_ text: String) -> String {
    String(decoding: encode(bytes: Array(text.utf8)), as: UTF8.self)
  }

  /// `bytes`, percent-encoded, as bytes. Written into one buffer of the
  /// worst case's size, a table look-up a byte: a 10,000-UID map's base64
  /// (400 KB, full of '+', '/' and '=') was 36 instructions a byte appended.
  static func encode(bytes: [UInt8]) -> [UInt8] {
    kept.withUnsafeBufferPointer { kept in
      hex.withUnsafeBufferPointer { hex in
        bytes.withUnsafeBufferPointer { input in
          [UInt8](unsafeUninitializedCapacity: input.count * 3) { output, count in
            var at = 0
            for byte in input {
              if kept[Int(byte)] {
                output[at] = byte
                at += 1
              } else {
                output[at] = UInt8(ascii: "%")
                output[at + 1] = hex[Int(byte >> 4)]
                output[at + 2] = hex[Int(byte & 0x0F)]
                at += 3
              }
            }
            count = at
          }
        }
      }
    }
  }
}
