import TPNSProtocol

/// The writer: Apple's layout (tabs, sorted keys), which `plutil` and
/// Python's `plistlib` read.
extension PropertyListXML {
  /// Whether `text` can be written: every character one XML allows (``allows(_:)``).
  static func isWritable(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { allows($0.value) }
  }

  /// `value` as an XML property list, in Apple's layout (tabs, sorted keys);
  /// refused for the first string (or key) XML cannot hold (``isWritable(_:)``).
  /// Room for `sizeHint` bytes is made first: a large store fills one buffer.
  static func serialize(_ value: PropertyListValue, sizeHint: Int = 0) throws(Unwritable)
    -> [UInt8]
  {
    var writer = Writer()
    writer.output.reserveCapacity(sizeHint + 1024)
    writer.append(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """)
    writer.write(value, depth: 0)
    writer.append("</plist>\n")
    if let text = writer.unwritable { throw Unwritable(text: text) }
    return writer.output
  }

  struct Unwritable: Error, Equatable {
    let text: String
  }

  fileprivate struct Writer {
    var output: [UInt8] = []
    /// The first string written that XML cannot hold.
    var unwritable: String?

    mutating func append(_ text: StaticString) {
      text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    mutating func indent(_ depth: Int) {
      for _ in 0..<depth { output.append(UInt8(ascii: "\t")) }
    }

    mutating func line(_ text: StaticString, depth: Int) {
      indent(depth)
      append(text)
      output.append(UInt8(ascii: "\n"))
    }

    mutating func element(_ open: StaticString, _ text: String, _ close: StaticString, depth: Int) {
      indent(depth)
      append(open)
      escape(text)
      append(close)
    }

    mutating func write(_ value: PropertyListValue, depth: Int) {
      switch value {
      case .string(let text): element("<string>", text, "</string>\n", depth: depth)
      case .integer(let number): element("<integer>", String(number), "</integer>\n", depth: depth)
      case .real(let number): element("<real>", number.description, "</real>\n", depth: depth)
      case .bool(let flag): line(flag ? "<true/>" : "<false/>", depth: depth)
      case .date(let secondsSince1970):
        let seconds = Int(secondsSince1970.rounded(.down))
        element("<date>", CivilDate.iso8601(seconds: seconds), "</date>\n", depth: depth)
      case .data(let data):
        element("<data>", Base64.encode(data), "</data>\n", depth: depth)
      case .array(let items):
        guard !items.isEmpty else { return line("<array/>", depth: depth) }
        line("<array>", depth: depth)
        for item in items { write(item, depth: depth + 1) }
        line("</array>", depth: depth)
      case .dictionary(let members):
        guard !members.isEmpty else { return line("<dict/>", depth: depth) }
        line("<dict>", depth: depth)
        for key in members.keys.sorted() {
          element("<key>", key, "</key>\n", depth: depth + 1)
          write(members[key]!, depth: depth + 1)
        }
        line("</dict>", depth: depth)
      }
    }

    /// Appends `text` with `&`, `<`, `>` and carriage returns escaped, and notes it if XML
    /// cannot hold it.
    mutating func escape(_ original: String) {
      // Over the string's bytes as one buffer: a store writes 20,000 strings.
      var text = original
      text.withUTF8 { utf8 in
        // Printable ASCII but the three entities, as every UID is: written as it is.
        let isPlain = utf8.allSatisfy { byte in
          byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<")
            && byte != UInt8(ascii: ">")
        }
        guard !isPlain else {
          output += utf8
          return
        }
        if unwritable == nil, !PropertyListXML.isWritable(original) { unwritable = original }
        // Copied run by run between the entities.
        var start = 0
        for (index, byte) in utf8.enumerated() {
          let entity: StaticString
          switch byte {
          case UInt8(ascii: "&"): entity = "&amp;"
          case UInt8(ascii: "<"): entity = "&lt;"
          case UInt8(ascii: ">"): entity = "&gt;"
          // A reader turns a carriage return written as it is into a line feed (XML's
          // line ends); written as a reference, it stays one.
          case 0x0D: entity = "&#13;"
          default: continue
          }
          output += utf8[start..<index]
          append(entity)
          start = index + 1
        }
        output += utf8[start...]
      }
    }
  }
}
