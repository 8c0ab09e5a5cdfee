import FoundationEssentials

/// The codec of the `mapsync` command's `map` parameter: base64 of a JSON array of
/// `{"uid": "…"}` objects.
///
/// ```swift
/// MapPayload.encode(["ABCDEFGHJKLMNPRSTUVW"])  // base64 of [{"uid":"ABCDEFGHJKLMNPRSTUVW"}]
/// try MapPayload.decode(text)                  // the UIDs, in order, duplicates kept
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

  /// The UIDs of a payload, in order and as sent (duplicates kept, syntax unchecked).
  ///
  /// Lenient where clients were: a space in the base64 is read as the `+` a lax
  /// form encoder turned into one, and the JSON may hold any JSON whitespace
  /// (the quickstart sent it pretty-printed). Everything else must be exact.
  public static func decode(_ text: String) throws(MapPayloadError) -> [String] {
    let bytes = try Base64.decode(text.replacing(" ", with: "+"))
    do {
      return try JSONDecoder().decode([Entry].self, from: Data(bytes)).map(\.uid)
    } catch let error as ShapeError {
      throw .shape(error.reason)
    } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
      throw .json(String(describing: context.underlyingError ?? error(context.debugDescription)))
    } catch {
      throw .shape(expected)
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

  /// One `{"uid": "…"}` object; any other key is a wrong shape.
  private struct Entry: Decodable {
    let uid: String

    init(from decoder: any Decoder) throws {
      let container: KeyedDecodingContainer<AnyKey>
      do {
        container = try decoder.container(keyedBy: AnyKey.self)
      } catch {
        throw ShapeError(reason: "\(MapPayload.expected), found an element that is not an object")
      }
      let keys = container.allKeys.map(\.stringValue).sorted()
      guard keys == ["uid"] else {
        let found = keys.isEmpty ? "an empty object" : "keys \(keys.joined(separator: ", "))"
        throw ShapeError(reason: "\(MapPayload.expected), found \(found)")
      }
      do {
        uid = try container.decode(String.self, forKey: AnyKey(stringValue: "uid"))
      } catch {
        throw ShapeError(reason: "\(MapPayload.expected), found a \"uid\" that is not a string")
      }
    }
  }
}
