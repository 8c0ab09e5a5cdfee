/// Text made safe to quote in a one-line reason or log line: control and non-ASCII
/// characters escaped as `\u{..}`, long text cut to `limit` characters with `…`.
struct Printable: CustomStringConvertible {
  var text: String
  var limit: Int

  init(_ text: String, limit: Int = 80) {
    self.text = text
    self.limit = limit
  }

  var description: String {
    var output = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if count == limit {
        output += "…"
        break
      }
      if scalar.value >= 0x20 && scalar.value < 0x7F {
        output.unicodeScalars.append(scalar)
      } else {
        output += "\\u{\(String(scalar.value, radix: 16))}"
      }
      count += 1
    }
    return output
  }
}
