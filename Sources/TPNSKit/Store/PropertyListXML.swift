import FoundationEssentials

/// Reads and writes XML property lists directly on bytes, in one pass.
///
/// Why not libplist's XML reader: it lets a key given twice pass and names
/// no line; this one refuses it, and a declared encoding other than UTF-8,
/// and says where the file is wrong. The writer prints Apple's layout,
/// which `plutil` and Python's `plistlib` read. The reader accepts what Apple's parser
/// accepts in practice: the XML declaration, a DOCTYPE, comments, CDATA, the
/// five entities and character references, and empty elements (`<string/>`).
enum PropertyListXML {
  /// Why bytes are not an XML property list; its `line` is 1-based.
  typealias ParseError = PropertyListParseError

  /// How deep elements may nest (`<plist>` not counted): see
  /// ``PropertyList/maximumDepth``.
  static var maximumDepth: Int { PropertyList.maximumDepth }

  /// The value at the top of the property list in `bytes`, which must be
  /// UTF-8 (a file in another encoding is refused, never rewritten garbled).
  static func parse(_ bytes: [UInt8]) throws(ParseError) -> PropertyListValue {
    if String(validating: bytes, as: UTF8.self) == nil {
      // Named by the line the first byte that is not UTF-8 is on.
      var parser = Unicode.UTF8.ForwardParser()
      var iterator = bytes.makeIterator()
      var offset = 0
      while case .valid(let scalar) = parser.parseScalar(from: &iterator) { offset += scalar.count }
      let line = 1 + bytes[..<offset].count(where: { $0 == 0x0A })
      throw ParseError(line: line, message: "the file is not UTF-8")
    }
    return try bytes.withUnsafeBufferPointer { (buffer) throws(ParseError) in
      var parser = Parser(bytes: buffer)
      return try parser.document()
    }
  }
}

extension PropertyListXML {
  /// The elements a property list is made of, matched on bytes: a tag's name
  /// becomes a `String` only for an error message.
  fileprivate enum Element {
    case string, key, dict, array, integer, `true`, `false`, real, date, data, plist
    case other

    init(name: UnsafeBufferPointer<UInt8>) {
      // The length first: most names are told apart by it alone.
      func named(_ text: StaticString) -> Bool {
        guard text.utf8CodeUnitCount == name.count else { return false }
        let start = text.utf8Start
        return (0..<name.count).allSatisfy { start[$0] == name[$0] }
      }
      self = Self.names.first { named($0.name) }?.element ?? .other
    }

    static let names: [(name: StaticString, element: Element)] = [
      ("string", .string), ("key", .key), ("dict", .dict), ("array", .array),
      ("integer", .integer), ("true", .true), ("false", .false), ("real", .real),
      ("date", .date), ("data", .data), ("plist", .plist),
    ]
  }

  /// An opening tag: its element, its name's bytes, and whether it is empty
  /// (`<string/>`).
  fileprivate struct Tag {
    let element: Element
    let name: Range<Int>
    let isEmpty: Bool
  }

  /// A cursor over the bytes of one document (the caller's array, alive for
  /// the whole parse).
  fileprivate struct Parser {
    static let cdataOpen: StaticString = "<![CDATA["
    static let cdataClose: StaticString = "]]>"
    static let commentOpen: StaticString = "<!--"
    static let commentClose: StaticString = "-->"
    static let declarationOpen: StaticString = "<?"
    static let declarationClose: StaticString = "?>"
    static let doctypeOpen: StaticString = "<!DOCTYPE"

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    mutating func document() throws(ParseError) -> PropertyListValue {
      // A UTF-8 byte order mark is allowed before the declaration.
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
      try skipMisc()
      let plist = try openTag()
      guard plist.element == .plist else {
        throw error("expected <plist>, found <\(name(of: plist))>")
      }
      guard !plist.isEmpty else { throw error("<plist/> holds no value") }
      let value = try self.value(depth: 1)
      try closeTag("plist")
      try skipMisc()
      guard index == bytes.count else { throw error("unexpected content after </plist>") }
      return value
    }

    /// One value element, `depth` levels down (the top value is at 1).
    mutating func value(depth: Int) throws(ParseError) -> PropertyListValue {
      try skipMisc()
      guard depth <= PropertyListXML.maximumDepth else {
        var failure = error("elements nest deeper than \(PropertyListXML.maximumDepth) levels")
        failure.isTooDeep = true
        throw failure
      }
      let tag = try openTag()
      switch tag.element {
      case .string: return .string(try text(closing: "string", empty: tag.isEmpty))
      case .true, .false:
        if !tag.isEmpty { try closeTag(tag.element == .true ? "true" : "false") }
        return .bool(tag.element == .true)
      case .integer:
        let text = try text(closing: "integer", empty: tag.isEmpty).trimmingWhitespace()
        guard let number = Int(text) ?? Self.hexadecimal(text) else {
          throw error("'\(text)' is not an integer")
        }
        return .integer(number)
      case .real:
        let text = try text(closing: "real", empty: tag.isEmpty).trimmingWhitespace()
        guard let number = Double(text) else { throw error("'\(text)' is not a real number") }
        return .real(number)
      case .date:
        let text = try text(closing: "date", empty: tag.isEmpty).trimmingWhitespace()
        guard let date = ISO8601.parse(text) else { throw error("'\(text)' is not a date") }
        return .date(date)
      case .data:
        let text = try text(closing: "data", empty: tag.isEmpty)
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
          throw error("the <data> is not base64")
        }
        return .data(data)
      case .array:
        var items: [PropertyListValue] = []
        guard !tag.isEmpty else { return .array(items) }
        while try !atClosing("array") {
          items.append(try value(depth: depth + 1))
        }
        try closeTag("array")
        return .array(items)
      case .dict:
        var members: [String: PropertyListValue] = [:]
        guard !tag.isEmpty else { return .dictionary(members) }
        while try !atClosing("dict") {
          let key = try openTag()
          guard key.element == .key else {
            throw error("expected <key> in <dict>, found <\(name(of: key))>")
          }
          let name = try text(closing: "key", empty: key.isEmpty)
          guard members[name] == nil else { throw error("the key '\(name)' appears twice") }
          members[name] = try value(depth: depth + 1)
        }
        try closeTag("dict")
        return .dictionary(members)
      case .plist, .key, .other:
        throw error("<\(name(of: tag))> is not a property list element")
      }
    }

    /// The name of `tag`, for a message.
    func name(of tag: Tag) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[tag.name]), as: UTF8.self)
    }

    /// An opening tag: its element, and whether it is empty (`<string/>`).
    mutating func openTag() throws(ParseError) -> Tag {
      guard index < bytes.count else { throw error("unexpected end of file") }
      guard bytes[index] == UInt8(ascii: "<") else { throw error("expected a tag") }
      var end = index + 1
      while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
      guard end < bytes.count else { throw error("unexpected end of file in a tag") }
      var innerEnd = end
      let isEmpty = innerEnd > index + 1 && bytes[innerEnd - 1] == UInt8(ascii: "/")
      if isEmpty { innerEnd -= 1 }
      // The name ends at white space (attributes such as version="1.0" follow).
      var nameEnd = index + 1
      while nameEnd < innerEnd, !Self.isSpace(bytes[nameEnd]) { nameEnd += 1 }
      let name = (index + 1)..<nameEnd
      guard !name.isEmpty, bytes[name.lowerBound] != UInt8(ascii: "/") else {
        throw error("expected an opening tag")
      }
      index = end + 1
      return Tag(
        element: Element(name: UnsafeBufferPointer(rebasing: bytes[name])), name: name,
        isEmpty: isEmpty)
    }

    mutating func closeTag(_ name: StaticString) throws(ParseError) {
      try skipMisc()
      let length = name.utf8CodeUnitCount
      let position = index + 2
      // XML allows white space before the `>` of an end tag (`</string >`).
      var end = position + length
      while end < bytes.count, Self.isSpace(bytes[end]) { end += 1 }
      guard at(index, UInt8(ascii: "<")), at(index + 1, UInt8(ascii: "/")),
        end < bytes.count,
        at(position, name),
        bytes[end] == UInt8(ascii: ">")
      else {
        throw error(
          index < bytes.count
            ? "expected </\(name)>" : "unexpected end of file, expected </\(name)>")
      }
      index = end + 1
    }

    mutating func atClosing(_ name: StaticString) throws(ParseError) -> Bool {
      try skipMisc()
      guard index < bytes.count else { throw error("unexpected end of file, expected </\(name)>") }
      return at(index, UInt8(ascii: "<")) && at(index + 1, UInt8(ascii: "/"))
    }

    /// Whether the byte at `position` is `byte`.
    func at(_ position: Int, _ byte: UInt8) -> Bool {
      position < bytes.count && bytes[position] == byte
    }

    /// Whether the bytes at `position` are `prefix`.
    func at(_ position: Int, _ prefix: StaticString) -> Bool {
      let count = prefix.utf8CodeUnitCount
      guard position + count <= bytes.count else { return false }
      // `utf8Start` checks the string's representation on each access: read once.
      let start = prefix.utf8Start
      for offset in 0..<count where bytes[position + offset] != start[offset] {
        return false
      }
      return true
    }

    /// Character data up to the closing tag, entities and CDATA decoded.
    mutating func text(closing name: StaticString, empty: Bool = false) throws(ParseError)
      -> String
    {
      if empty { return "" }
      // The common case, plain text up to the closing tag, without a copy.
      let start = index
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "<"), bytes[end] != UInt8(ascii: "&") {
        end += 1
      }
      if at(end, UInt8(ascii: "<")), at(end + 1, UInt8(ascii: "/")) {
        index = end
        try closeTag(name)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
      }
      var output: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "<") {
          if at(index, Self.cdataOpen) {
            let start = index + 9
            guard let end = find(Self.cdataClose, from: start) else {
              throw error("unexpected end of file in CDATA")
            }
            output += bytes[start..<end]
            index = end + 3
            continue
          }
          if at(index, Self.commentOpen) {
            try skipComment()
            continue
          }
          try closeTag(name)
          return String(decoding: output, as: UTF8.self)
        }
        if byte == UInt8(ascii: "&") {
          output += try entity()
          continue
        }
        output.append(byte)
        index += 1
      }
      throw error("unexpected end of file, expected </\(name)>")
    }

    /// An entity or character reference, as UTF-8.
    mutating func entity() throws(ParseError) -> [UInt8] {
      guard let end = bytes[index..<min(index + 12, bytes.count)].firstIndex(of: UInt8(ascii: ";"))
      else {
        throw error("an '&' that starts no entity")
      }
      let name = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self)
      index = end + 1
      switch name {
      case "amp": return [UInt8(ascii: "&")]
      case "lt": return [UInt8(ascii: "<")]
      case "gt": return [UInt8(ascii: ">")]
      case "quot": return [UInt8(ascii: "\"")]
      case "apos": return [UInt8(ascii: "'")]
      default:
        let value: UInt32? =
          name.hasPrefix("#x")
          ? UInt32(name.dropFirst(2), radix: 16)
          : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
        guard let value, let scalar = Unicode.Scalar(value) else {
          throw error("unknown entity '&\(name);'")
        }
        return Array(String(Character(scalar)).utf8)
      }
    }

    /// Skips white space, comments, the XML declaration and a DOCTYPE.
    mutating func skipMisc() throws(ParseError) {
      while index < bytes.count {
        let byte = bytes[index]
        if Self.isSpace(byte) {
          index += 1
        } else if byte != UInt8(ascii: "<")
          || !(at(index + 1, UInt8(ascii: "!")) || at(index + 1, UInt8(ascii: "?")))
        {
          // Text, or a tag: no markup to skip.
          return
        } else if at(index, Self.commentOpen) {
          try skipComment()
        } else if at(index, Self.declarationOpen) {
          guard let end = find(Self.declarationClose, from: index) else {
            throw error("unexpected end of file in <?...?>")
          }
          // Only UTF-8 (the default) is read: another encoding is refused.
          // Looked for in ASCII-lowercased bytes: XML spells it in any case.
          let declaration = bytes[index..<end].map { $0 | (0x41...0x5A ~= $0 ? 0x20 : 0) }
          let key = Array("encoding=".utf8)
          if let at = stride(from: 0, through: declaration.count - key.count, by: 1).first(where: {
            declaration[$0..<$0 + key.count].elementsEqual(key)
          }) {
            let value = String(
              decoding: declaration[(at + key.count)...].dropFirst()
                .prefix { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") },
              as: UTF8.self)
            guard value == "utf-8" || value == "utf8" else {
              throw error("the file declares the encoding '\(value)'; only UTF-8 is read")
            }
          }
          index = end + 2
        } else if at(index, Self.doctypeOpen) {
          var end = index
          while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
          guard end < bytes.count else { throw error("unexpected end of file in <!DOCTYPE>") }
          index = end + 1
        } else {
          return
        }
      }
    }

    mutating func skipComment() throws(ParseError) {
      guard let end = find(Self.commentClose, from: index + 4) else {
        throw error("unexpected end of file in a comment")
      }
      index = end + 3
    }

    func find(_ needle: StaticString, from start: Int) -> Int? {
      var position = start
      while position + needle.utf8CodeUnitCount <= bytes.count {
        if at(position, needle) { return position }
        position += 1
      }
      return nil
    }

    /// Whether `byte` is XML white space (space, tab, line feed, carriage return).
    static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    func error(_ message: String) -> ParseError {
      let line = bytes[..<min(index, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
      return ParseError(line: line, message: message)
    }

    static func hexadecimal(_ text: String) -> Int? {
      let negative = text.hasPrefix("-")
      let digits = negative ? text.dropFirst() : Substring(text)
      guard digits.hasPrefix("0x") || digits.hasPrefix("0X"),
        let magnitude = Int(digits.dropFirst(2), radix: 16)
      else { return nil }
      return negative ? -magnitude : magnitude
    }
  }
}
