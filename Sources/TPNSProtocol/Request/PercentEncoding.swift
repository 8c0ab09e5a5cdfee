/// Percent-encoding of form values: every byte but the RFC 3986 unreserved
/// characters (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`, so base64's `+ / =` are
/// encoded too. (The same set `curl_easy_escape` keeps, done here so that the
/// wire format needs no curl handle and is tested byte for byte.)
enum PercentEncoding {
  private static let hex = Array("0123456789ABCDEF".utf8)

  /// `text`, percent-encoded.
  static func encode(_ text: String) -> String {
    var output: [UInt8] = []
    var text = text
    output.reserveCapacity(text.utf8.count + text.utf8.count / 8)
    text.withUTF8 { bytes in
      for byte in bytes {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
          UInt8(ascii: "_"), UInt8(ascii: "~"):
          output.append(byte)
        default:
          // Three appends, not `+= [...]`: an array per escaped byte was most of
          // the time of a 10,000-UID map (its base64 is full of '+', '/' and '=').
          output.append(UInt8(ascii: "%"))
          output.append(hex[Int(byte >> 4)])
          output.append(hex[Int(byte & 0x0F)])
        }
      }
    }
    return String(decoding: output, as: UTF8.self)
  }
}
