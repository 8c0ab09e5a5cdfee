/// One entry of a `mapsync` list: a UID and its per-mapping settings, as
/// real clients send them (`[{"uid":"…","interval":3,"format":"…"}]`).
public struct MapEntry: Hashable, Sendable {
  /// The device UID.
  public var uid: String
  /// How often, in seconds, the service may push this device's events (`interval`).
  public var interval: Int?
  /// A base64 message template for this device's pushes (`format`).
  public var format: String?

  /// The intervals a canonical client sends, here and in `mapping`'s `interval`.
  public static let intervals: ClosedRange<Int> = 0...Int(Int32.max)

  /// An entry; settings absent by default.
  public init(uid: String, interval: Int? = nil, format: String? = nil) {
    self.uid = uid
    self.interval = interval
    self.format = format
  }
}
