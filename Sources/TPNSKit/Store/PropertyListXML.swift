import Glibc
import TPNSProtocol

/// Reads and writes XML property lists.
///
/// Why not libplist's XML reader: it lets a key given twice pass and names
/// no line; this one refuses it, and a declared encoding other than UTF-8,
/// and says where the file is wrong. The reader accepts what Apple's parser
/// accepts in practice: the XML declaration, a DOCTYPE, comments and processing
/// instructions (skipped), CDATA, the five entities and character references, and
/// empty elements (`<string/>`); it reads line ends as XML does (CR LF and CR as LF).
/// It refuses what XML forbids in text, which the writer could not write back
/// (``allows(_:)``).
enum PropertyListXML {
  /// Why bytes are not an XML property list; its `line` is 1-based.
  typealias ParseError = PropertyListParseError

  /// The value at the top of the property list in `bytes`, which must be
  /// UTF-8 (a file in another encoding is refused, never rewritten garbled).
  static func parse(_ bytes: [UInt8]) throws(ParseError) -> PropertyListValue {
    do {
      _ = try UTF8Span(validating: bytes.span)
    } catch {
      throw ParseError(
        line: line(of: bytes[..<error.byteOffsets.lowerBound]), message: "the file is not UTF-8")
    }
    // Read through a buffer pointer: a slice of the array would retain and
    // release it at every step. The parser checks each index against the count.
    return try bytes.withUnsafeBufferPointer { (buffer) throws(ParseError) in
      var parser = Parser(bytes: buffer)
      return try parser.document()
    }
  }

  /// Whether XML 1.0 allows the character of Unicode scalar value `value`: not C0
  /// controls but tab and line ends, not U+FFFE or U+FFFF. The reader refuses what
  /// the writer could not write.
  static func allows(_ value: UInt32) -> Bool {
    switch value {
    case 0x09, 0x0A, 0x0D: true
    case ..<0x20, 0xFFFE, 0xFFFF: false
    default: true
    }
  }

  /// The first character of `text` XML does not allow, as `U+001B`; nil if none.
  static func disallowedCharacter(in text: String) -> String? {
    text.unicodeScalars.first(where: { !allows($0.value) })?.codePoint
  }

  /// What such a character is called in every message that refuses one.
  static let notAllowed = "a character XML does not allow"

  /// The 1-based line after `prefix`: a line ends with LF, CR LF or CR alone, as XML reads them.
  static func line(of prefix: some Sequence<UInt8>) -> Int {
    var line = 1
    var afterCarriageReturn = false
    for byte in prefix {
      if byte == 0x0D || (byte == 0x0A && !afterCarriageReturn) { line += 1 }
      afterCarriageReturn = byte == 0x0D
    }
    return line
  }
}

extension PropertyListXML {
  /// An opening tag: where its element's name is in the document, and
  /// whether it is empty (`<string/>`).
  fileprivate struct Tag {
    let nameBytes: Range<Int>
    let isEmpty: Bool
  }

  /// A cursor over the bytes of one document.
  fileprivate struct Parser {
    static let cdataOpen = Array("<![CDATA[".utf8)
    static let cdataClose = Array("]]>".utf8)
    static let commentOpen = Array("<!--".utf8)
    static let commentClose = Array("-->".utf8)
    static let declarationOpen = Array("<?".utf8)
    static let xmlDeclarationOpen = Array("<?xml".utf8)
    static let declarationClose = Array("?>".utf8)
    static let doctypeOpen = Array("<!DOCTYPE".utf8)

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The longest array read so far. A store holds each server's acknowledged
    /// list beside its own, most often the same UIDs: a string equal to the one
    /// at the same place in this array shares its storage rather than being
    /// made again (half the strings, and the memory, of a store in sync).
    var longestArray: [PropertyListValue] = []
    /// The count of ``longestArray`` when it last gave an array its room.
    var roomGiven = 0

    mutating func document() throws(ParseError) -> PropertyListValue {
      // A UTF-8 byte order mark is allowed before the declaration.
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
      try skipMisc()
      let plist = try openTag()
      guard tag(plist, is: "plist") else {
        throw error("expected <plist>, found <\(name(of: plist))>")
      }
      guard !plist.isEmpty else { throw error("<plist/> holds no value") }
      let value = try self.value(depth: 1)
      try closeTag(plist)
      try skipMisc()
      if index < bytes.count { try checkCharacters(in: index..<(index + 1)) }
      guard index == bytes.count else { throw error("unexpected content after </plist>") }
      return value
    }

    /// One value element, `depth` levels down (the top value is at 1); a
    /// string equal to the one at `position` in ``longestArray`` is that one.
    mutating func value(depth: Int, position: Int? = nil) throws(ParseError)
      -> PropertyListValue
    {
      try skipMisc()
      guard depth <= PropertyList.maximumDepth else {
        var failure = error("elements nest deeper than \(PropertyList.maximumDepth) levels")
        failure.isTooDeep = true
        throw failure
      }
      let tag = try openTag()
      // Most elements are strings: told apart without making a String of the name.
      if self.tag(tag, is: "string") {
        return .string(try text(closing: tag, position: position))
      }
      let element = name(of: tag)
      switch element {
      case "true", "false":
        if !tag.isEmpty { try closeTag(tag) }
        return .bool(element == "true")
      case "integer":
        let text = try text(closing: tag).trimmingWhitespace()
        guard let number = Int(text) ?? Self.hexadecimal(text) else {
          throw error("'\(text)' is not an integer")
        }
        return .integer(number)
      case "real":
        let text = try text(closing: tag).trimmingWhitespace()
        guard let number = Double(text) else { throw error("'\(text)' is not a real number") }
        return .real(number)
      case "date":
        let text = try text(closing: tag).trimmingWhitespace()
        guard let seconds = CivilDate.seconds(iso8601: text) else {
          throw error("'\(text)' is not a date")
        }
        return .date(secondsSince1970: Double(seconds))
      case "data":
        // Base64 broken into indented lines, as plist writers lay it out.
        let text = try text(closing: tag).utf8.filter { !Self.isSpace($0) }
        do {
          return .data(try Base64.decode(text))
        } catch {
          guard case .base64(let reason) = error else {
            throw self.error("the <data> is not base64")
          }
          throw self.error("the <data> is not base64: \(reason)")
        }
      case "array":
        var items: [PropertyListValue] = []
        guard !tag.isEmpty else { return .array(items) }
        // The array after the longest one (a store's list after its acknowledged copy)
        // is given that one's room at once rather than one doubling at a time; only
        // that array, so that many short ones after a long one ask for no more.
        if longestArray.count > roomGiven {
          items.reserveCapacity(longestArray.count)
          roomGiven = longestArray.count
        }
        while try !atClosing(tag) {
          items.append(try value(depth: depth + 1, position: items.count))
        }
        try closeTag(tag)
        if items.count > longestArray.count { longestArray = items }
        return .array(items)
      case "dict":
        var members: [String: PropertyListValue] = [:]
        guard !tag.isEmpty else { return .dictionary(members) }
        while try !atClosing(tag) {
          let key = try openTag()
          guard self.tag(key, is: "key") else {
            throw error("expected <key> in <dict>, found <\(self.name(of: key))>")
          }
          let name = try text(closing: key)
          guard members[name] == nil else {
            throw error("the key '\(PropertyList.shown(key: name))' appears twice")
          }
          members[name] = try value(depth: depth + 1)
        }
        try closeTag(tag)
        return .dictionary(members)
      default:
        throw error("<\(element)> is not a property list element")
      }
    }

    /// An opening tag; its name ends at white space (attributes such as
    /// version="1.0" follow).
    mutating func openTag() throws(ParseError) -> Tag {
      guard index < bytes.count else { throw error("unexpected end of file") }
      guard bytes[index] == UInt8(ascii: "<") else {
        try checkCharacters(in: index..<(index + 1))
        throw error("expected a tag")
      }
      guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
        throw error("unexpected end of file in a tag")
      }
      let isEmpty = end > index + 1 && bytes[end - 1] == UInt8(ascii: "/")
      var nameEnd = index + 1
      while nameEnd < (isEmpty ? end - 1 : end), !Self.isSpace(bytes[nameEnd]) { nameEnd += 1 }
      let name = (index + 1)..<nameEnd
      guard !name.isEmpty, bytes[name.lowerBound] != UInt8(ascii: "/") else {
        throw error("expected an opening tag")
      }
      index = end + 1
      return Tag(nameBytes: name, isEmpty: isEmpty)
    }

    func name(of tag: Tag) -> String {
      String(decoding: bytes[tag.nameBytes], as: UTF8.self)
    }

    func tag(_ tag: Tag, is name: StaticString) -> Bool {
      tag.nameBytes.count == name.utf8CodeUnitCount
        && sameBytes(
          at: tag.nameBytes.lowerBound, as: name.utf8Start, count: name.utf8CodeUnitCount)
    }

    /// The end tag of `tag`, after any comments and white space; XML allows
    /// white space before its `>` (`</string >`).
    mutating func closeTag(_ tag: Tag) throws(ParseError) {
      try skipMisc()
      let nameEnd = index + 2 + tag.nameBytes.count
      var end = nameEnd
      while end < bytes.count, Self.isSpace(bytes[end]) { end += 1 }
      guard isClosing(at: index), end < bytes.count, bytes[end] == UInt8(ascii: ">"),
        sameBytes(
          at: index + 2, as: bytes.baseAddress! + tag.nameBytes.lowerBound,
          count: tag.nameBytes.count)
      else {
        throw error(
          end < bytes.count
            ? "expected </\(name(of: tag))>"
            : "unexpected end of file, expected </\(name(of: tag))>")
      }
      index = end + 1
    }

    /// Whether the end tag of `tag`, or another, comes next.
    mutating func atClosing(_ tag: Tag) throws(ParseError) -> Bool {
      try skipMisc()
      guard index < bytes.count else {
        throw error("unexpected end of file, expected </\(name(of: tag))>")
      }
      return isClosing(at: index)
    }

    /// Whether the bytes at `position` are `</`.
    func isClosing(at position: Int) -> Bool {
      position + 1 < bytes.count && bytes[position] == UInt8(ascii: "<")
        && bytes[position + 1] == UInt8(ascii: "/")
    }

    /// Whether the `count` bytes at `position` are those at `other`; the
    /// caller has checked that they are in the document.
    func sameBytes(at position: Int, as other: UnsafePointer<UInt8>, count: Int) -> Bool {
      memcmp(bytes.baseAddress! + position, other, count) == 0
    }

    func at(_ position: Int, _ prefix: [UInt8]) -> Bool {
      position <= bytes.count && bytes[position...].starts(with: prefix)
    }

    /// Character data up to the closing tag of `tag`, entities and CDATA
    /// decoded; the string at `position` in ``longestArray`` if the text is the same.
    mutating func text(closing tag: Tag, position: Int? = nil) throws(ParseError)
      -> String
    {
      if tag.isEmpty { return "" }
      // The common case, plain text up to the closing tag, read without a copy.
      let start = index
      let end = find(UInt8(ascii: "<"), in: start..<bytes.count) ?? bytes.count
      if isClosing(at: end), find(UInt8(ascii: "&"), in: start..<end) == nil,
        find(UInt8(ascii: "\r"), in: start..<end) == nil
      {
        index = end
        try closeTag(tag)
        if let position, position < longestArray.count,
          case .string(let earlier) = longestArray[position],
          earlier.utf8.withContiguousStorageIfAvailable({ utf8 in
            utf8.count == end - start && !utf8.isEmpty
              && sameBytes(at: start, as: utf8.baseAddress!, count: utf8.count)
          }) == true
        {
          return earlier
        }
        try checkCharacters(in: start..<end)
        return String(decoding: bytes[start..<end], as: UTF8.self)
      }
      var output: [UInt8] = []
      while index < bytes.count {
        if at(index, Self.cdataOpen) {
          guard let end = find(Self.cdataClose, from: index + 9) else {
            throw error("unexpected end of file in CDATA")
          }
          try checkCharacters(in: (index + 9)..<end)
          appendNormalizingLineEnds(bytes[(index + 9)..<end], to: &output)
          index = end + 3
        } else if at(index, Self.commentOpen) {
          try skipComment()
        } else if at(index, Self.declarationOpen) {
          try skipProcessingInstruction()
        } else if bytes[index] == UInt8(ascii: "<") {
          guard isClosing(at: index) else {
            throw error(
              "<\(name(of: tag))> holds text, not elements (write a '<' in text as '&lt;')")
          }
          try closeTag(tag)
          return String(decoding: output, as: UTF8.self)
        } else if bytes[index] == UInt8(ascii: "&") {
          output += try entity()
        } else if bytes[index] == UInt8(ascii: "\r") {
          // CR LF, or CR alone, is a line end read as LF.
          output.append(UInt8(ascii: "\n"))
          index += at(index + 1, [UInt8(ascii: "\n")]) ? 2 : 1
        } else {
          try checkCharacters(in: index..<(index + 1))
          output.append(bytes[index])
          index += 1
        }
      }
      throw error("unexpected end of file, expected </\(name(of: tag))>")
    }

    /// An entity or character reference, as UTF-8.
    mutating func entity() throws(ParseError) -> [UInt8] {
      // A name is letters and digits (`#` and `x` of a reference among them), up to `;`.
      var end = index + 1
      while end < bytes.count, bytes[end] == UInt8(ascii: "#") || Self.isAlphanumeric(bytes[end]) {
        end += 1
      }
      guard end > index + 1, end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
        throw error("an '&' that starts no entity (write a lone '&' as '&amp;')")
      }
      let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
      index = end + 1
      let entities = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
      if let text = entities[name] { return Array(text.utf8) }
      let isHex = name.hasPrefix("#x")
      let digits = name.dropFirst(isHex ? 2 : 1)
      guard name.hasPrefix("#"), !digits.isEmpty,
        digits.allSatisfy({ isHex ? $0.isHexDigit : ("0"..."9").contains($0) })
      else {
        throw error("unknown entity '&\(name);'")
      }
      guard let value = UInt32(digits, radix: isHex ? 16 : 10), let scalar = Unicode.Scalar(value)
      else {
        throw error("'&\(name);' is no Unicode character")
      }
      guard PropertyListXML.allows(value) else {
        throw error("'&\(name);' is \(scalar.codePoint), \(PropertyListXML.notAllowed)")
      }
      return Array(String(Character(scalar)).utf8)
    }

    /// Skips white space, comments, the XML declaration and a DOCTYPE.
    mutating func skipMisc() throws(ParseError) {
      while index < bytes.count {
        if Self.isSpace(bytes[index]) {
          index += 1
        } else if bytes[index] != UInt8(ascii: "<") || index + 1 == bytes.count
          || (bytes[index + 1] != UInt8(ascii: "!") && bytes[index + 1] != UInt8(ascii: "?"))
        {
          return  // Text, or a tag: no markup to skip.
        } else if at(index, Self.commentOpen) {
          try skipComment()
        } else if at(index, Self.declarationOpen) {
          try skipProcessingInstruction()
        } else if at(index, Self.doctypeOpen) {
          guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
            throw error("unexpected end of file in <!DOCTYPE>")
          }
          index = end + 1
        } else {
          return
        }
      }
    }

    /// Skips a processing instruction (`<?target …?>`); the XML declaration
    /// (`<?xml …?>`) may declare no encoding but UTF-8.
    mutating func skipProcessingInstruction() throws(ParseError) {
      guard let end = find(Self.declarationClose, from: index) else {
        throw error("unexpected end of file in <?...?>")
      }
      // `<?xml?>` or `<?xml …`, not `<?xml-stylesheet …`; `end` is at or after the name's end.
      let afterName = index + Self.xmlDeclarationOpen.count
      if at(index, Self.xmlDeclarationOpen), afterName == end || Self.isSpace(bytes[afterName]) {
        try checkEncoding(String(decoding: bytes[index..<end], as: UTF8.self))
      }
      index = end + 2
    }

    /// Refuses text at `range` holding a character XML does not allow
    /// (``PropertyListXML/allows(_:)``), naming it and its line. Only C0 controls
    /// and U+FFFE and U+FFFF (EF BF BE and EF BF BF: the file is valid UTF-8) can be.
    func checkCharacters(in range: Range<Int>) throws(ParseError) {
      for position in range where bytes[position] < 0x20 || bytes[position] == 0xEF {
        let value =
          bytes[position] < 0x20
          ? UInt32(bytes[position])
          : 0xF000 | UInt32(bytes[position + 1] & 0x3F) << 6 | UInt32(bytes[position + 2] & 0x3F)
        if !PropertyListXML.allows(value), let scalar = Unicode.Scalar(value) {
          throw error("\(scalar.codePoint) is \(PropertyListXML.notAllowed)", at: position)
        }
      }
    }

    /// Appends `text` with each line end written CR LF, or CR alone, as LF, as XML reads it.
    func appendNormalizingLineEnds(
      _ text: Slice<UnsafeBufferPointer<UInt8>>, to output: inout [UInt8]
    ) {
      var afterCarriageReturn = false
      for byte in text {
        if byte == 0x0D {
          output.append(0x0A)
        } else if byte != 0x0A || !afterCarriageReturn {
          output.append(byte)
        }
        afterCarriageReturn = byte == 0x0D
      }
    }

    /// Refuses a `declaration` (`<?xml …`) of an encoding other than UTF-8,
    /// the only one read; XML spells it in any case.
    func checkEncoding(_ declaration: String) throws(ParseError) {
      let declaration = declaration.lowercased()
      guard let key = declaration.firstRange(of: "encoding") else { return }
      // `encoding="…"`, XML allowing white space around the `=`.
      let afterKey = declaration[key.upperBound...].drop(while: \.isWhitespace)
      guard afterKey.first == "=" else { return }
      let quoted = afterKey.dropFirst().drop(while: \.isWhitespace)
      let value = quoted.dropFirst().prefix { $0 != "\"" && $0 != "'" }
      guard value == "utf-8" || value == "utf8" else {
        throw error("the file declares the encoding '\(value)'; only UTF-8 is read")
      }
    }

    mutating func skipComment() throws(ParseError) {
      guard let end = find(Self.commentClose, from: index + 4) else {
        throw error("unexpected end of file in a comment")
      }
      index = end + 3
    }

    /// Where `byte` first is in `range`; memchr reads a long text many bytes at a time.
    func find(_ byte: UInt8, in range: Range<Int>) -> Int? {
      let base = UnsafeRawPointer(bytes.baseAddress!)
      guard let found = memchr(base + range.lowerBound, Int32(byte), range.count) else {
        return nil
      }
      return base.distance(to: found)
    }

    func find(_ needle: [UInt8], from start: Int) -> Int? {
      (start..<max(start, bytes.count)).first { at($0, needle) }
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// Whether `byte` is XML white space (space, tab, line feed, carriage return).
    static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The error `message` at `position` (where the cursor is, by default).
    func error(_ message: String, at position: Int? = nil) -> ParseError {
      let position = min(position ?? index, bytes.count)
      return ParseError(line: PropertyListXML.line(of: bytes[..<position]), message: message)
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
