import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Reads and writes XML property lists directly on bytes.
///
/// The store could go through `PropertyListDecoder`, but its generic Codable
/// path costs about 1.7 µs a string: 35 ms to read a store of 10,000 UIDs
/// (and as many synced ones), more than a whole `tpns list` should take. This
/// reader is a single pass over the bytes; the writer prints Apple's layout,
/// which `plutil` and Python's `plistlib` read. It accepts what Apple's parser
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
    try parse(bytes, extractingList: nil).value
  }

  /// The value at the top of the property list in `bytes`, as ``parse(_:)``
  /// reads it, with the array under `listKey` in its top dictionary taken out
  /// and returned as a ``UIDList`` when it holds only plain strings (text
  /// without markup or entities, as tpns writes its list): no `String` per
  /// item. When that key holds anything else, it stays in the value and
  /// the list is nil.
  static func parse(
    _ bytes: [UInt8], extractingList listKey: String?
  ) throws(ParseError) -> (value: PropertyListValue, list: UIDList?) {
    return try bytes.withUnsafeBufferPointer { (buffer) throws(ParseError) in
      if let offset = UTF8Validation.firstInvalidOffset(in: buffer) {
        // Named by the line the first byte that is not UTF-8 is on.
        let line = 1 + buffer[..<offset].count(where: { $0 == 0x0A })
        throw ParseError(line: line, message: "the file is not UTF-8")
      }
      var parser = Parser(bytes: buffer)
      parser.listKey = listKey
      let value = try parser.document()
      return (value, parser.list)
    }
  }

  /// Whether `text` can be written: XML 1.0 cannot hold C0 control characters
  /// other than tab, line feed and carriage return.
  static func isWritable(_ text: String) -> Bool {
    // On UTF-8 bytes (this runs for every stored UID on every write): C0
    // controls are single bytes; U+FFFE and U+FFFF are EF BF BE and EF BF BF.
    // Read in place (`withContiguousStorageIfAvailable`: the mutating
    // `withUTF8` checks the buffer is unique each time).
    text.utf8.withContiguousStorageIfAvailable(isWritable) ?? isWritable(Array(text.utf8))
  }

  private static func isWritable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    // Printable ASCII (every UID) is writable: checked 8 bytes at a time, a
    // byte being in 0x20...0x7F when neither it nor it minus 0x20 has the high bit.
    let raw = UnsafeRawBufferPointer(bytes)
    var index = 0
    while index + 8 <= raw.count {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      if (word | (word &- 0x2020_2020_2020_2020)) & 0x8080_8080_8080_8080 != 0 { break }
      index += 8
    }
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in bytes[index...] {
      if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return false }
      if previous == (0xEF, 0xBF), byte == 0xBE || byte == 0xBF { return false }
      previous = (previous.1, byte)
    }
    return true
  }

  private static func isWritable(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { isWritable($0) }
  }

  /// `value` as an XML property list, in Apple's layout (tabs, sorted keys).
  /// A string XML cannot hold (see ``isWritable(_:)``) is written as it is:
  /// ``serialize(checking:)`` refuses it instead.
  static func serialize(_ value: PropertyListValue) -> [UInt8] {
    document(value).output
  }

  /// `value` as ``serialize(_:)`` writes it, or the first string (or key)
  /// XML cannot hold: checked as each string is copied, not in a pass of its own.
  /// With `list`, its UIDs are written as an array of strings under its key
  /// in `value`'s top dictionary (which must not hold that key).
  static func serialize(
    checking value: PropertyListValue, list: (key: String, uids: UIDList)? = nil
  ) -> Result<[UInt8], Unwritable> {
    let writer = document(value, list: list)
    return writer.unwritable.map { .failure(Unwritable(text: $0)) } ?? .success(writer.output)
  }

  /// A string a property list cannot hold.
  struct Unwritable: Error, Equatable {
    let text: String
  }

  private static func document(
    _ value: PropertyListValue, list: (key: String, uids: UIDList)? = nil
  ) -> Writer {
    var writer = Writer()
    writer.list = list
    writer.output.reserveCapacity(4096)
    writer.append(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """)
    writer.write(value, depth: 0)
    writer.append("</plist>\n")
    return writer
  }

  /// Appends a document's bytes. Pieces are appended from static strings'
  /// and strings' own bytes: no array, no closure capturing the output (a
  /// 10,000-UID list is 10,000 elements, each a few appends).
  private struct Writer {
    var output: [UInt8] = []
    /// The first string written that XML cannot hold.
    var unwritable: String?
    /// A list written under its key in the top dictionary.
    var list: (key: String, uids: UIDList)?

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
      case .date(let date): element("<date>", ISO8601.format(date), "</date>\n", depth: depth)
      case .data(let data):
        element("<data>", data.base64EncodedString(), "</data>\n", depth: depth)
      case .array(let items):
        guard !items.isEmpty else { return line("<array/>", depth: depth) }
        // Room for a list of short strings at once, rather than a dozen regrowths.
        output.reserveCapacity(output.count + items.count * (depth + 32))
        line("<array>", depth: depth)
        // The line of a string item without its text, made once: a list of
        // 10,000 UIDs is three copies an item.
        var open = [UInt8](repeating: UInt8(ascii: "\t"), count: depth + 1)
        open += "<string>".utf8
        let close = Array("</string>\n".utf8)
        // Through the array's buffer: no retain and release of each item to iterate.
        items.withUnsafeBufferPointer { items in
          for index in items.indices {
            if case .string(let text) = items[index] {
              output += open
              escape(text)
              output += close
            } else {
              write(items[index], depth: depth + 1)
            }
          }
        }
        line("</array>", depth: depth)
      case .dictionary(let members):
        let list = depth == 0 ? self.list : nil
        var keys = Array(members.keys)
        if let list {
          precondition(members[list.key] == nil, "the list's key is in the dictionary")
          keys.append(list.key)
        }
        guard !keys.isEmpty else { return line("<dict/>", depth: depth) }
        line("<dict>", depth: depth)
        for key in keys.sorted() {
          element("<key>", key, "</key>\n", depth: depth + 1)
          if let list, key == list.key {
            write(list.uids, depth: depth + 1)
          } else {
            write(members[key]!, depth: depth + 1)
          }
        }
        line("</dict>", depth: depth)
      }
    }

    /// `uids` as an array of strings, copied from the list's buffer when
    /// all of it is plain text (every list of UIDs), else escaped one by one.
    mutating func write(_ uids: UIDList, depth: Int) {
      guard !uids.isEmpty else { return line("<array/>", depth: depth) }
      line("<array>", depth: depth)
      var open = [UInt8](repeating: UInt8(ascii: "\t"), count: depth + 1)
      open += "<string>".utf8
      let close = Array("</string>\n".utf8)
      let isUIDs = depth == 1 && uids.isAllTwentyBytes
      let written = uids.withBytes { bytes, ends in
        isUIDs && writeUIDLines(bytes, ends) || writePlainLines(bytes, ends, open, close)
      }
      if !written {
        for index in uids.indices {
          output += open
          escape(uids[index])
          output += close
        }
      }
      line("</array>", depth: depth)
    }

    /// The lines of a list of 20-byte UIDs of plain text (every list tpns
    /// stores) at depth 1, as tpns writes them (`\t\t<string>`, the UID,
    /// `</string>\n`), made in place at the output's end by word stores, the
    /// UID's three words checked as they are copied (each element must be 20
    /// bytes: ``UIDList/isAllTwentyBytes``). false, and nothing written, if
    /// one is not plain text.
    mutating func writeUIDLines(
      _ bytes: UnsafeBufferPointer<UInt8>, _ ends: UnsafeBufferPointer<UInt32>
    ) -> Bool {
      guard let source = UnsafeRawPointer(bytes.baseAddress) else { return false }
      // The lines' room, with the rest of the document's (the digest after
      // the list, the closing tags): a regrowth there copied it all again.
      let start = output.count
      output.reserveCapacity(start + ends.count * 40 + 4096)
      output.append(contentsOf: repeatElement(0, count: ends.count * 40))
      let plain = output.withUnsafeMutableBytes { output in
        // A line: "\t\t" (0-1), "<string>" (2-9), the UID (10-29),
        // "</string" (30-37), ">\n" (38-39).
        var at = output.baseAddress! + start
        var from = source
        for _ in 0..<ends.count {
          let first = from.loadUnaligned(as: UInt64.self)
          let second = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
          let last = from.loadUnaligned(fromByteOffset: 12, as: UInt64.self)
          guard ByteScan.isPlainText(first, second, last) else { return false }
          at.storeBytes(of: UInt16(littleEndian: 0x0909), as: UInt16.self)
          at.storeBytes(of: Self.openWord, toByteOffset: 2, as: UInt64.self)
          at.storeBytes(of: first, toByteOffset: 10, as: UInt64.self)
          at.storeBytes(of: second, toByteOffset: 18, as: UInt64.self)
          at.storeBytes(of: last, toByteOffset: 22, as: UInt64.self)
          at.storeBytes(of: Self.closeWord, toByteOffset: 30, as: UInt64.self)
          at.storeBytes(of: UInt16(littleEndian: 0x0A3E), toByteOffset: 38, as: UInt16.self)
          at += 40
          from += 20
        }
        return true
      }
      if !plain { output.removeSubrange(start...) }
      return plain
    }

    /// `<string>` and `</string` as little-endian words (literals: a `static
    /// let` is a `swift_once` call at each use).
    static var openWord: UInt64 { UInt64(littleEndian: 0x3E67_6E69_7274_733C) }
    static var closeWord: UInt64 { UInt64(littleEndian: 0x676E_6972_7473_2F3C) }

    /// The lines of a list all of plain text, built in a 64 KB buffer by
    /// word copies and appended a buffer at a time (an append per piece was
    /// three quarters of writing a 10,000-UID list). false, and nothing
    /// written, if an item is not plain text.
    mutating func writePlainLines(
      _ bytes: UnsafeBufferPointer<UInt8>, _ ends: UnsafeBufferPointer<UInt32>,
      _ open: [UInt8], _ close: [UInt8]
    ) -> Bool {
      guard ByteScan.isPlainText(bytes) else { return false }
      output.reserveCapacity(
        output.count + ends.count * (open.count + close.count) + bytes.count + 4096)
      let chunk = 64 * 1024
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunk) { buffer in
        open.withUnsafeBytes { open in
          close.withUnsafeBytes { close in
            var used = 0
            var start = 0
            for end in ends {
              let end = Int(end)
              let size = open.count + end - start + close.count
              if used + size > chunk {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<used]))
                used = 0
              }
              if size > chunk {
                // A string longer than the buffer: appended as it is.
                output.append(contentsOf: open)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                output.append(contentsOf: close)
              } else {
                var at = buffer.baseAddress! + used
                ByteScan.copy(open.baseAddress!, to: at, count: open.count)
                at += open.count
                ByteScan.copy(bytes.baseAddress! + start, to: at, count: end - start)
                at += end - start
                ByteScan.copy(close.baseAddress!, to: at, count: close.count)
                used += size
              }
              start = end
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<used]))
          }
        }
      }
      return true
    }
    mutating func escape(_ text: String) {
      if let plain = text.utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
        // Most strings (every UID) are printable ASCII: nothing to escape,
        // nothing XML cannot hold; copied at once.
        guard ByteScan.isPlainText(bytes) else { return false }
        output.append(contentsOf: bytes)
        return true
      }), plain {
        return
      }
      if unwritable == nil, !PropertyListXML.isWritable(text) { unwritable = text }
      for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "&"): append("&amp;")
        case UInt8(ascii: "<"): append("&lt;")
        case UInt8(ascii: ">"): append("&gt;")
        default: output.append(byte)
        }
      }
    }
  }
}

extension PropertyListXML {
  /// The elements a property list is made of, matched on bytes: a tag's name
  /// becomes a `String` only for an error message.
  fileprivate enum Element: Equatable {
    case plist, string, `true`, `false`, integer, real, date, data, array, dict, key
    case other

    init(name: UnsafeBufferPointer<UInt8>) {
      func named(_ text: StaticString) -> Bool {
        text.utf8CodeUnitCount == name.count
          && memcmp(text.utf8Start, name.baseAddress!, name.count) == 0
      }
      switch name.count {
      case 3: self = named("key") ? .key : .other
      case 4:
        self =
          named("dict")
          ? .dict
          : named("true")
            ? .true
            : named("real")
              ? .real
              : named("date") ? .date : named("data") ? .data : .other
      case 5:
        self = named("plist") ? .plist : named("false") ? .false : named("array") ? .array : .other
      case 6: self = named("string") ? .string : .other
      case 7: self = named("integer") ? .integer : .other
      default: self = .other
      }
    }
  }

  /// An opening tag: its element, its name's bytes, and whether it is empty
  /// (`<string/>`).
  fileprivate struct Tag {
    let element: Element
    let name: Range<Int>
    let isEmpty: Bool
  }

  /// A cursor over the bytes of one document. It reads through an unsafe
  /// buffer (the caller's array, alive for the whole parse): no slice, no
  /// reference count, no bounds check past the ones written here.
  fileprivate struct Parser {
    static let cdataOpen: StaticString = "<![CDATA["
    static let cdataClose: StaticString = "]]>"
    static let commentOpen: StaticString = "<!--"
    static let commentClose: StaticString = "-->"
    static let declarationOpen: StaticString = "<?"
    static let declarationClose: StaticString = "?>"
    static let doctypeOpen: StaticString = "<!DOCTYPE"
    static let stringOpen: StaticString = "<string>"
    static let stringClose: StaticString = "</string>"

    static let arrayOpen: StaticString = "<array>"
    static let arrayClose: StaticString = "</array>"

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The top dictionary's key whose array of plain strings is read into ``list``.
    var listKey: String?
    /// That array, once read.
    var list: UIDList?

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
        while true {
          if let text = plainString() {
            items.append(.string(text))
          } else if try atClosing("array") {
            break
          } else {
            items.append(try value(depth: depth + 1))
          }
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
          guard members[name] == nil, depth != 1 || list == nil || name != listKey else {
            throw error("the key '\(name)' appears twice")
          }
          if depth == 1, name == listKey, let read = stringList() {
            list = read
            continue
          }
          members[name] = try value(depth: depth + 1)
        }
        try closeTag("dict")
        return .dictionary(members)
      case .plist, .key, .other:
        throw error("<\(name(of: tag))> is not a property list element")
      }
    }

    /// The item of a long list, `<string>` and text without markup or
    /// entities up to `</string>`, read in one pass (a 10,000-UID list is
    /// little else); nil, and nothing read, for anything else, which the
    /// general path reads (or reports).
    mutating func plainString() -> String? {
      plainStringRange().map {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)
      }
    }

    /// Where the text of the item ``plainString()`` reads is, read past it.
    mutating func plainStringRange() -> Range<Int>? {
      // The item as tpns writes a UID: "\n\t\t<string>", 20 bytes without
      // `<` or `&`, "</string>"; recognised by word compares alone.
      if index + 40 <= bytes.count {
        let raw = UnsafeRawPointer(bytes.baseAddress! + index)
        let lead = UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)) & 0x00FF_FFFF
        if lead == 0x0009_090A,
          raw.loadUnaligned(fromByteOffset: 3, as: UInt64.self) == Self.stringOpenWord,
          raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self) == Self.stringCloseWord,
          bytes[index + 31] == UInt8(ascii: "<"),
          ByteScan.isFreeOfMarkup(UnsafeRawPointer(raw + 11))
        {
          let start = index + 11
          index += 40
          return start..<start + 20
        }
      }
      var start = index
      while start < bytes.count, Self.isSpace(bytes[start]) { start += 1 }
      // The tags compared as words, not by `memcmp` (a call each; this runs
      // twice for each UID of a list).
      guard start + 17 <= bytes.count else { return nil }
      let raw = UnsafeRawPointer(bytes.baseAddress!)
      guard raw.loadUnaligned(fromByteOffset: start, as: UInt64.self) == Self.stringOpenWord else {
        return nil
      }
      start += 8
      let end = ByteScan.firstIndex(
        of: UInt8(ascii: "<"), or: UInt8(ascii: "&"), in: bytes, from: start)
      guard end + 9 <= bytes.count,
        raw.loadUnaligned(fromByteOffset: end + 1, as: UInt64.self) == Self.stringCloseWord,
        bytes[end] == UInt8(ascii: "<")
      else { return nil }
      index = end + 9
      return start..<end
    }

    /// `<string>` as a little-endian word (a literal: a `static let` is a
    /// `swift_once` call at each use).
    static var stringOpenWord: UInt64 { UInt64(littleEndian: 0x3E67_6E69_7274_733C) }
    /// `/string>`, `</string>` after its `<`, as a little-endian word.
    static var stringCloseWord: UInt64 { UInt64(littleEndian: 0x3E67_6E69_7274_732F) }

    /// An `<array>` of plain strings only (see ``plainString()``) as a
    /// ``UIDList``, read in one pass into buffers as large as the rest of the
    /// file could fill. nil, and nothing read, for anything else (the
    /// general path reads it, or reports what is wrong).
    mutating func stringList() -> UIDList? {
      let start = index
      var open = index
      while open < bytes.count, Self.isSpace(bytes[open]) { open += 1 }
      guard at(open, Self.arrayOpen) else { return nil }
      index = open + Self.arrayOpen.utf8CodeUnitCount
      // One pass, into buffers as large as the rest of the file could fill
      // (each item takes at least the 17 bytes of its tags): the pages
      // nothing is written to are never touched.
      let rest = bytes.count - index
      guard rest <= Int(UInt32.max) else {
        index = start
        return nil
      }
      var ends: [UInt32] = []
      let storage = [UInt8](unsafeUninitializedCapacity: rest) { storage, written in
        ends = [UInt32](unsafeUninitializedCapacity: rest / 17 + 1) { ends, count in
          written = 0
          count = 0
          // Items as tpns writes them (the fast path of plainStringRange(),
          // with the copy, in one loop: no call, and the UID's three words
          // loaded once to check and to store), then any other shape.
          // Locals, not the parser's and the closure's own (memory, each use).
          let raw = UnsafeRawPointer(bytes.baseAddress!)
          let target = UnsafeMutableRawPointer(storage.baseAddress!)
          let ending = ends.baseAddress!
          let limit = bytes.count - 40
          var position = index
          var size = 0
          var items = 0
          while position <= limit {
            let at = raw + position
            guard
              UInt32(littleEndian: at.loadUnaligned(as: UInt32.self)) & 0x00FF_FFFF
                == 0x0009_090A,
              at.loadUnaligned(fromByteOffset: 3, as: UInt64.self) == Self.stringOpenWord,
              at.loadUnaligned(fromByteOffset: 32, as: UInt64.self) == Self.stringCloseWord,
              at.load(fromByteOffset: 31, as: UInt8.self) == UInt8(ascii: "<")
            else { break }
            let first = at.loadUnaligned(fromByteOffset: 11, as: UInt64.self)
            let second = at.loadUnaligned(fromByteOffset: 19, as: UInt64.self)
            let last = at.loadUnaligned(fromByteOffset: 23, as: UInt64.self)
            guard ByteScan.isFreeOfMarkup(first, second, last) else { break }
            let into = target + size
            into.storeBytes(of: first, as: UInt64.self)
            into.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
            into.storeBytes(of: last, toByteOffset: 12, as: UInt64.self)
            size += 20
            ending[items] = UInt32(truncatingIfNeeded: size)
            items += 1
            position += 40
          }
          index = position
          written = size
          count = items
          while let range = plainStringRange() {
            ByteScan.copy(
              bytes.baseAddress! + range.lowerBound, to: storage.baseAddress! + written,
              count: range.count)
            written += range.count
            ends[count] = UInt32(written)
            count += 1
          }
        }
      }
      var close = index
      while close < bytes.count, Self.isSpace(bytes[close]) { close += 1 }
      guard at(close, Self.arrayClose) else {
        index = start
        return nil
      }
      index = close + Self.arrayClose.utf8CodeUnitCount
      return UIDList(storage: storage, ends: ends)
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
      // Compared in place: this runs once per element.
      let length = name.utf8CodeUnitCount
      let position = index + 2
      // XML allows white space before the `>` of an end tag (`</string >`).
      var end = position + length
      while end < bytes.count, Self.isSpace(bytes[end]) { end += 1 }
      guard at(index, UInt8(ascii: "<")), at(index + 1, UInt8(ascii: "/")),
        end < bytes.count,
        memcmp(bytes.baseAddress! + position, name.utf8Start, length) == 0,
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
      return position + count <= bytes.count
        && memcmp(bytes.baseAddress! + position, prefix.utf8Start, count) == 0
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
        } else if byte != UInt8(ascii: "<") {
          return
        } else if at(index, Self.commentOpen) {
          try skipComment()
        } else if at(index, Self.declarationOpen) {
          guard let end = find(Self.declarationClose, from: index) else {
            throw error("unexpected end of file in <?...?>")
          }
          // Only UTF-8 (the default) is read: another encoding is refused.
          // Looked for in ASCII-lowercased bytes (`String.firstRange(of:)`
          // was a quarter of a 1-UID `tpns list`'s store read).
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
