import FoundationEssentials

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
    var json = "["
    for (index, entry) in entries.enumerated() {
      if index > 0 { json += "," }
      json += "{\"uid\":" + JSONString.quoted(entry.uid)
      if let interval = entry.interval { json += ",\"interval\":\(interval)" }
      if let format = entry.format { json += ",\"format\":" + JSONString.quoted(format) }
      json += "}"
    }
    json += "]"
    return Base64.encode(json.utf8)
  }

  /// The UIDs of a payload, in order and as sent (duplicates kept, syntax unchecked),
  /// from a payload as a canonical client sends it: entries of `uid` and, when set,
  /// `interval` and `format`.
  ///
  /// Lenient where the quickstart was: a space in the base64 is read as the `+` a lax
  /// form encoder turned into one, and the JSON may hold any JSON whitespace (the
  /// quickstart sent it pretty-printed). Anything ``decode(entries:)`` reports as an
  /// irregularity is refused.
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
  /// with what a canonical client would not have sent, read past rather than refused:
  ///
  /// - base64 broken into lines (Android's `Base64.DEFAULT`): the line breaks are skipped;
  /// - keys besides `uid`, `interval` and `format`: kept in ``DecodedMapPayload/otherKeys``;
  /// - an `interval` that is a string of digits or out of range: taken as that integer;
  ///   any other that is not an integer: ignored; a `format` that is not a string:
  ///   ignored.
  ///
  /// As ``decode(_:)``, a space is read as `+` and any JSON whitespace is accepted.
  /// Throws for anything that is not base64 of a JSON array of objects each with a
  /// string `uid`.
  ///
  ///     try MapPayload.decode(entries: text).entries  // [MapEntry(uid: "…", interval: 3)]
  public static func decode(entries text: String) throws(MapPayloadError) -> DecodedMapPayload {
    var irregularities: [MapPayloadIrregularity] = []
    var base64 = text
    if base64.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
      irregularities.append(.lineBreaks)
      base64 = String(
        decoding: base64.utf8.filter { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") },
        as: UTF8.self)
    }
    let bytes = try Base64.decode(base64.replacing(" ", with: "+"))
    let raw: [RawEntry]
    do {
      raw = try JSONDecoder().decode([RawEntry].self, from: Data(bytes))
    } catch let error as ShapeError {
      throw .shape(error.reason)
    } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
      throw .json(String(describing: context.underlyingError ?? error(context.debugDescription)))
    } catch {
      throw .shape(expected)
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
      if let value = others.removeValue(forKey: "interval") {
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

  private static let expected = #"expected a JSON array of {"uid": "..."} objects"#

  private struct Reason: Error, CustomStringConvertible {
    let description: String
  }

  private static func error(_ text: String) -> Reason { Reason(description: text) }

  private struct ShapeError: Error {
    let reason: String
  }

  private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// One object with a string `uid`, and its other keys as sent.
  private struct RawEntry: Decodable {
    let uid: String
    let others: [String: JSONValue]

    init(from decoder: any Decoder) throws {
      let container: KeyedDecodingContainer<AnyKey>
      do {
        container = try decoder.container(keyedBy: AnyKey.self)
      } catch {
        throw ShapeError(reason: "\(MapPayload.expected), found an element that is not an object")
      }
      let uidKey = AnyKey(stringValue: "uid")
      guard container.contains(uidKey) else {
        let keys = container.allKeys.map(\.stringValue).sorted()
        let found = keys.isEmpty ? "an empty object" : "keys \(keys.joined(separator: ", "))"
        throw ShapeError(reason: "\(MapPayload.expected), found \(found)")
      }
      do {
        uid = try container.decode(String.self, forKey: uidKey)
      } catch {
        throw ShapeError(reason: "\(MapPayload.expected), found a \"uid\" that is not a string")
      }
      var others: [String: JSONValue] = [:]
      for key in container.allKeys where key.stringValue != "uid" {
        // A number JSON allows but no Swift type holds (1e400) is kept as null.
        others[key.stringValue] = (try? container.decode(JSONValue.self, forKey: key)) ?? .null
      }
      self.others = others
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
