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
    return Base64.encode(json + "]".utf8)
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
    let isLineBreak = { (byte: UInt8) in byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
    var irregularities: [MapPayloadIrregularity] =
      text.utf8.contains(where: isLineBreak) ? [.lineBreaks] : []
    let bytes = try Base64.decode(
      text.utf8.filter { !isLineBreak($0) }.map { $0 == UInt8(ascii: " ") ? UInt8(ascii: "+") : $0 }
    )
    let json: JSONValue
    do {
      json = try JSONValue(parsing: bytes)
    } catch {
      throw .json(error.description)
    }
    guard case .array(let elements) = json else { throw .shape(expected) }

    var entries: [MapEntry] = []
    var otherKeys: [[String: JSONValue]] = []
    var withOtherKeys: [Int] = []
    var otherKeyNames: Set<String> = []
    for (index, element) in elements.enumerated() {
      guard case .object(var others) = element else {
        throw .shape("\(expected), found an element that is not an object")
      }
      let uid: String
      switch others.removeValue(forKey: "uid") {
      case .string(let text)?: uid = text
      case nil:
        let keys = others.keys.sorted()
        let found = keys.isEmpty ? "an empty object" : "keys \(keys.joined(separator: ", "))"
        throw .shape("\(expected), found \(found)")
      case _?: throw .shape("\(expected), found a \"uid\" that is not a string")
      }
      var mapEntry = MapEntry(uid: uid)
      if var value = others.removeValue(forKey: "interval") {
        // JSONDecoder read a number that is a whole Int64 (3.0, 1e2) as an integer.
        if case .number(let number) = value, let integer = Self.wholeInt64(number) {
          value = .integer(integer)
        }
        // Taken: an integer, or a string of decimal digits (with an optional `-`).
        var isCanonical = false
        switch value {
        case .integer(let number):
          mapEntry.interval = Int(number)
          isCanonical = MapEntry.intervals.contains(Int(number))
        case .string(let text) where !text.hasPrefix("+"): mapEntry.interval = Int(text)
        default: break
        }
        if !isCanonical {
          irregularities.append(
            .interval(entry: index, found: value.compactText, takenAs: mapEntry.interval))
        }
      }
      switch others.removeValue(forKey: "format") {
      case .string(let format)?: mapEntry.format = format
      case let value?: irregularities.append(.format(entry: index, found: value.compactText))
      case nil: break
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

  /// `number` as an `Int64` when it is one exactly (`Int64(exactly:)` without the C
  /// library's `trunc`, which would make this module link libm).
  private static func wholeInt64(_ number: Double) -> Int64? {
    guard number >= -0x1p63, number < 0x1p63 else { return nil }
    let integer = Int64(number)
    return Double(integer) == number ? integer : nil
  }

  private static let expected = #"expected a JSON array of {"uid": "..."} objects"#
}
