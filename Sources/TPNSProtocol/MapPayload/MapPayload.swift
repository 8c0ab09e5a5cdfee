/// The codec of the `mapsync` command's `map` parameter: base64 of a JSON array of
/// `{"uid": "…"}` objects, each with that UID's `interval` and `format` when set.
///
/// ```swift
/// MapPayload.encode(["ABCDEFGHJKLMNPRSTUVW"])  // base64 of [{"uid":"ABCDEFGHJKLMNPRSTUVW"}]
/// try MapPayload.decode(text)                  // the UIDs, in order, duplicates kept
/// try MapPayload.decode(entries: text)         // the entries, and what was irregular
/// ```
public enum MapPayload {
  /// Compact JSON `[{"uid":"…"},…]` in list order, in standard padded base64.
  /// An empty list is `[]`.
  public static func encode(_ uids: [String]) -> String {
    encode(entries: uids.map { MapEntry(uid: $0) })
  }

  /// Compact JSON of the entries in list order, each `{"uid":"…"}` with its
  /// `interval` and `format` when set (TUTK's Android quickstart's shape), in
  /// standard padded base64.
  public static func encode(entries: [MapEntry]) -> String {
    Base64.encode(json(entries: entries))
  }

  /// The JSON ``encode(entries:)`` encodes in base64.
  static func json(entries: [MapEntry]) -> [UInt8] {
    var json: [UInt8] = Array("[".utf8)
    json.reserveCapacity(entries.count * 32 + 2)
    for (index, entry) in entries.enumerated() {
      if index > 0 { json += ",".utf8 }
      json += #"{"uid":"#.utf8
      json += JSONString.quoted(entry.uid).utf8
      if let interval = entry.interval { json += #","interval":\#(interval)"#.utf8 }
      if let format = entry.format { json += (#","format":"# + JSONString.quoted(format)).utf8 }
      json += "}".utf8
    }
    return json + "]".utf8
  }

  /// The UIDs of a payload as a canonical client sends it, in order and as sent
  /// (duplicates kept, syntax unchecked). Lenient where the quickstart was: a space in
  /// the base64 is read as the `+` a lax form encoder made of it, and the JSON may hold
  /// any whitespace. Anything ``decode(entries:)`` reports as irregular is refused.
  public static func decode(_ text: String) throws(MapPayloadError) -> [String] {
    let decoded = try decode(entries: text)
    switch decoded.irregularities.first {
    case nil:
      return decoded.entries.map(\.uid)
    case .lineBreaks:
      throw .base64("it is broken into lines")
    case .otherKeys(_, let keys):
      throw .shape(
        "\(expected), found keys besides uid, interval and format: \(keys.joined(separator: ", "))")
    case let irregularity?:
      throw .shape(irregularity.description)
    }
  }

  /// The entries of a payload, in order and as sent (duplicates kept, UIDs unchecked),
  /// with what a canonical client would not have sent read past rather than refused
  /// (each a ``MapPayloadIrregularity``; other keys kept in
  /// ``DecodedMapPayload/otherKeys``). As ``decode(_:)``, a space is read as `+` and
  /// any JSON whitespace is accepted. Throws for anything that is not base64 of a JSON
  /// array of objects each with a string `uid`.
  ///
  ///     try MapPayload.decode(entries: text).entries  // [MapEntry(uid: "…", interval: 3)]
  public static func decode(entries text: String) throws(MapPayloadError) -> DecodedMapPayload {
    var irregularities: [MapPayloadIrregularity] = []
    // Line breaks skipped, a space read as '+'.
    var base64: [UInt8] = []
    var hasLineBreaks = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"): hasLineBreaks = true
      case UInt8(ascii: " "): base64.append(UInt8(ascii: "+"))
      default: base64.append(byte)
      }
    }
    if hasLineBreaks { irregularities.append(.lineBreaks) }
    let bytes = try Base64.decode(base64)
    let read: Result<[RawEntry], ShapeError>
    do {
      read = try rawEntries(bytes)
    } catch {
      throw .json(error.description)
    }
    let raw: [RawEntry]
    switch read {
    case .success(let entries): raw = entries
    case .failure(let error): throw .shape(error.reason)
    }

    var entries: [MapEntry] = []
    var otherKeys: [[String: JSONValue]] = []
    var withOtherKeys: [Int] = []
    var otherKeyNames: Set<String> = []
    entries.reserveCapacity(raw.count)
    otherKeys.reserveCapacity(raw.count)
    for (index, entry) in raw.enumerated() {
      var others = entry.others
      var mapEntry = MapEntry(uid: entry.uid)
      guard !others.isEmpty else {
        entries.append(mapEntry)
        otherKeys.append(others)
        continue
      }
      if var value = others.removeValue(forKey: "interval") {
        // JSONDecoder read a number that is a whole Int64 (3.0, 1e2) as an integer.
        if case .number(let number) = value, let integer = Self.wholeInt64(number) {
          value = .integer(integer)
        }
        let taken = Self.interval(value)
        mapEntry.interval = taken
        if taken.map(MapEntry.intervals.contains) != true || !value.isInteger {
          irregularities.append(.interval(entry: index, found: value.compactText, takenAs: taken))
        }
      }
      if let value = others.removeValue(forKey: "format") {
        if case .string(let format) = value {
          mapEntry.format = format
        } else {
          irregularities.append(.format(entry: index, found: value.compactText))
        }
      }
      if !others.isEmpty {
        withOtherKeys.append(index)
        otherKeyNames.formUnion(others.keys)
      }
      entries.append(mapEntry)
      otherKeys.append(others)
    }
    if !withOtherKeys.isEmpty {
      irregularities.append(.otherKeys(entries: withOtherKeys, keys: otherKeyNames.sorted()))
    }
    return DecodedMapPayload(
      entries: entries, otherKeys: otherKeys, irregularities: irregularities)
  }

  /// The integer an `interval` value stands for: a JSON integer, or a string of
  /// decimal digits (with an optional `-`); nil for anything else.
  private static func interval(_ value: JSONValue) -> Int? {
    switch value {
    case .integer(let number):
      return Int(exactly: number)
    case .string(let text):
      let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
      guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
      return Int(text)
    default:
      return nil
    }
  }

  /// `number` as an `Int64` when it is one exactly (`Int64(exactly:)` without the C
  /// library's `trunc`, which would make this module link libm).
  private static func wholeInt64(_ number: Double) -> Int64? {
    guard number >= -0x1p63, number < 0x1p63 else { return nil }
    let integer = Int64(number)
    return Double(integer) == number ? integer : nil
  }

  private static let expected = #"expected a JSON array of {"uid": "..."} objects"#

  /// Why the JSON is not an array of objects each with a string `uid`.
  private struct ShapeError: Error {
    let reason: String
  }

  /// One object with a string `uid`, and its other keys as sent.
  private struct RawEntry {
    let uid: String
    let others: [String: JSONValue]
  }

  /// The entries of the JSON `bytes`, or why they are not an array of objects each
  /// with a string `uid` (the first element that is not, in order). Bytes that are
  /// not JSON throw, whatever their shape: the whole input is read either way.
  private static func rawEntries(_ bytes: [UInt8]) throws(JSONSyntaxError) -> Result<
    [RawEntry], ShapeError
  > {
    var parser = JSONParser(bytes)
    parser.skipByteOrderMark()
    guard parser.peek() == UInt8(ascii: "[") else {
      _ = try parser.value(depth: 0)
      try parser.end()
      return .failure(ShapeError(reason: expected))
    }
    var entries: [RawEntry] = []
    var shapeError: ShapeError?
    if try parser.beginArray(depth: 0) {
      repeat {
        if shapeError == nil, parser.peek() == UInt8(ascii: "{") {
          switch try entry(&parser) {
          case .success(let entry): entries.append(entry)
          case .failure(let error): shapeError = error
          }
        } else {
          _ = try parser.value(depth: 1)
          if shapeError == nil {
            shapeError = ShapeError(reason: "\(expected), found an element that is not an object")
          }
        }
      } while try parser.next(close: "]")
    }
    try parser.end()
    return shapeError.map { .failure($0) } ?? .success(entries)
  }

  /// The object at the parser's `{`, an element of the top array. As `JSONDecoder`
  /// read it, the first of duplicate keys wins, `uid` included.
  private static func entry(_ parser: inout JSONParser) throws(JSONSyntaxError) -> Result<
    RawEntry, ShapeError
  > {
    enum UID {
      case absent
      case string(String)
      case notString
    }
    var uid = UID.absent
    var others: [String: JSONValue] = [:]
    if try parser.beginObject(depth: 1) {
      repeat {
        let key = try parser.key()
        if key == "uid" {
          guard case .absent = uid else {
            _ = try parser.value(depth: 2)
            continue
          }
          if parser.peek() == UInt8(ascii: "\"") {
            uid = .string(try parser.string())
          } else {
            _ = try parser.value(depth: 2)
            uid = .notString
          }
        } else {
          let value = try parser.value(depth: 2)
          if others.index(forKey: key) == nil { others[key] = value }
        }
      } while try parser.next(close: "}")
    }
    switch uid {
    case .string(let uid):
      return .success(RawEntry(uid: uid, others: others))
    case .notString:
      return .failure(ShapeError(reason: "\(expected), found a \"uid\" that is not a string"))
    case .absent:
      let keys = others.keys.sorted()
      let found = keys.isEmpty ? "an empty object" : "keys \(keys.joined(separator: ", "))"
      return .failure(ShapeError(reason: "\(expected), found \(found)"))
    }
  }
}

extension JSONValue {
  /// Whether this is a JSON integer.
  fileprivate var isInteger: Bool {
    if case .integer = self { return true }
    return false
  }
}
