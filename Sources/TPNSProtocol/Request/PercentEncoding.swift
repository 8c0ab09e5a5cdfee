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

  /// The UTF-8 of `text`, percent-encoded, read in place (a 10,000-UID
  /// map's value is not copied into an array first).
  static func encode(_ text: String) -> [UInt8] {
    text.utf8.withContiguousStorageIfAvailable(encode)
      ?? Array(text.utf8).withUnsafeBufferPointer(encode)
  }

  /// `input`, percent-encoded. Written into one buffer of the worst case's
  /// size, a table look-up a byte: a 10,000-UID map's base64 (400 KB, full
  /// of '+', '/' and '=') was 36 instructions a byte appended.
  private static func encode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    kept.withUnsafeBufferPointer { kept in
      hex.withUnsafeBufferPointer { hex in
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
