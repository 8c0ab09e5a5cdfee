/// Why a `mapsync` payload (the `map` parameter) was not accepted.
public enum MapPayloadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The text is not padded standard base64.
  case base64(String)
  /// The decoded bytes are not JSON (or not UTF-8).
  case json(String)
  /// The JSON is not an array of `{"uid": "…"}` objects.
  case shape(String)

  public var description: String {
    switch self {
    case .base64(let reason): return "map is not valid base64: \(reason)"
    case .json(let reason): return "map is not valid JSON: \(reason)"
    case .shape(let reason): return "map has the wrong shape: \(reason)"
    }
  }
}
